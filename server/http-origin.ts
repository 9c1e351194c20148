import type { FastifyRequest } from 'fastify';

/**
 * Whether a browser sent this request from the console's own pages: its `Origin` is PUBLIC_URL's,
 * or the browser itself says the request is same-origin (`Sec-Fetch-Site`), which also covers a
 * console opened under another name of the same host (localhost for 127.0.0.1). A request with
 * neither header proves nothing and is not from the console.
 */
export function isFromConsole(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === publicOrigin || sameOriginFetch(request);
  return sameOriginFetch(request);
}

const sameOriginFetch = (request: FastifyRequest) =>
  request.headers['sec-fetch-site'] === 'same-origin';
