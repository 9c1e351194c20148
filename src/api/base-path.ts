/** The runtime base path (`/` or `/prefix/`), injected by the server into index.html. */
export function readBasePath(): string {
  if (typeof document === 'undefined') return '/';
  const value = document.querySelector('meta[name="launchpad-base-path"]')?.getAttribute('content');
  return value && value.startsWith('/') && value.endsWith('/') ? value : '/';
}

export const basePath = readBasePath();

/** The API root as an absolute URL (fetch outside a browser cannot resolve relative ones). */
export const apiBase =
  typeof document === 'undefined'
    ? `${basePath}api/v1/`
    : new URL(`${basePath}api/v1/`, document.baseURI).href;
