import type { Plugin, Rollup } from 'vite';

/** A route's split chunk: `src/routes/_app/virtualMachines.tsx?tsr-split=component---loader`. */
const ROUTE_SPLIT = /[\\/]src[\\/]routes[\\/](.+)\.tsx\?tsr-split=(.+)$/;

/** A pathless layout's segment (`_app`): it adds nothing to the address. */
const isPathless = (segment: string) => segment.startsWith('_');

/**
 * The address a route file answers, as a pattern:
 * `_app/networks/$networkId/index` → `^/networks/[^/]+/?$`.
 */
export function routePattern(routeFile: string): string {
  const segments = routeFile
    .split(/[/.]/)
    // Index routes add nothing to the URL either.
    .filter((segment) => !isPathless(segment) && segment !== 'index')
    .map((segment) =>
      segment.startsWith('$') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return `^/${segments.join('/')}${segments.length > 0 ? '/?' : ''}$`;
}

/**
 * The route files that may hold a route's layouts:
 * `_app/networks/$networkId/edit` → `_app`, `_app/networks`, `_app/networks/$networkId`.
 */
function layoutsOf(routeFile: string): string[] {
  const separators = [...routeFile.matchAll(/[/.]/g)].map((m) => m.index);
  return separators.map((at) => routeFile.slice(0, at));
}

/**
 * For each screen, the files its first visit needs beyond the entry: the split chunks of the
 * route and of its layouts (their component and loader, not their error screens), everything
 * those import, and the stylesheets that come with them. Paths relative to the build's root.
 */
export function screenFiles(bundle: Rollup.OutputBundle): [pattern: string, files: string[]][] {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (start: Rollup.OutputChunk[]) => {
    const seen = new Set<Rollup.OutputChunk>();
    const visit = (chunk: Rollup.OutputChunk | undefined) => {
      if (!chunk || seen.has(chunk)) return;
      seen.add(chunk);
      for (const name of chunk.imports) visit(byName.get(name));
    };
    start.forEach(visit);
    return seen;
  };
  const loadedByTheEntry = closure(chunks.filter((chunk) => chunk.isEntry));

  const splitsByRoute = new Map<string, Rollup.OutputChunk[]>();
  for (const chunk of chunks) {
    const [, routeFile, parts] = ROUTE_SPLIT.exec(chunk.facadeModuleId ?? '') ?? [];
    if (!routeFile || !parts) continue;
    const route = routeFile.replace(/\\/g, '/');
    if (!parts.split('---').some((part) => part === 'component' || part === 'loader')) continue;
    splitsByRoute.set(route, [...(splitsByRoute.get(route) ?? []), chunk]);
  }

  const screens = new Map<string, Set<string>>();
  for (const route of [...splitsByRoute.keys()].sort()) {
    // A pathless layout (`_app`) is no screen of its own; its screens bring it.
    if (isPathless(route.split(/[/.]/).at(-1)!)) continue;
    const own = [...layoutsOf(route), route].flatMap((file) => splitsByRoute.get(file) ?? []);
    const needed = [...closure(own)].filter((chunk) => !loadedByTheEntry.has(chunk));
    const styles = needed.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
    // A layout and its index route answer the same address: one screen, both their files.
    const pattern = routePattern(route);
    const files = screens.get(pattern) ?? new Set<string>();
    for (const file of [...needed.map((chunk) => chunk.fileName), ...styles]) files.add(file);
    screens.set(pattern, files);
  }
  return [...screens].map(([pattern, files]) => [pattern, [...files]]);
}

/**
 * Whether the browser holds a session, as the page's inline scripts ask (this one and
 * login-page.ts's). Plain script; the storage keys are session-store.ts's.
 */
export const SESSION_STORED = `(localStorage.getItem('session') || sessionStorage.getItem('session'))`;

/**
 * Runs in the page as it is parsed, given the files and, per screen, its pattern and its files'
 * indexes. Plain script (no build step reaches it).
 */
const PRELOAD_FIRST_SCREEN = `function (files, screens) {
  try {
    if (!${SESSION_STORED}) return;
  } catch (storageRefused) {
    return;
  }
  var base = new URL(document.baseURI);
  var path = location.pathname.slice(base.pathname.length - 1);
  var screen = screens.find(function (s) { return new RegExp(s[0]).test(path); });
  (screen ? screen[1] : []).forEach(function (index) {
    var link = document.createElement('link');
    link.setAttribute('data-first-screen', '');
    if (/\\.css$/.test(files[index])) {
      // As the module loader asks for a stylesheet: no CORS.
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    }
    link.href = new URL(files[index], base).href;
    document.head.appendChild(link);
  });
  // The signed-in screens show days in the reader's locale. The first date formatter of a page
  // loads the locale's data (a tenth of a second on a phone); made now, in a task of its own
  // while the code downloads, the console's own formatters are then made at no cost.
  setTimeout(function () {
    new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  }, 0);
}`;

/**
 * With a stored session, the first screen's code starts downloading while the page is parsed, in
 * parallel with the entry, rather than after the entry has run (see `warmFirstScreen`): on a
 * phone's network that is most of a second. An inline script in index.html (the server allows it
 * by its hash) picks the screen's files from the build's chunk graph by the address.
 */
export function firstScreenPreload(): Plugin {
  return {
    name: 'launchpad:first-screen-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        // Only the console's page (not noVNC's).
        if (!bundle || !chunk?.facadeModuleId?.endsWith('index.html')) return html;
        const screens = screenFiles(bundle);
        const files = [...new Set(screens.flatMap(([, list]) => list))];
        const indexed = screens.map(([pattern, list]) => [
          pattern,
          list.map((file) => files.indexOf(file)),
        ]);
        const code = `(${PRELOAD_FIRST_SCREEN})(${JSON.stringify(files)}, ${JSON.stringify(indexed)});`;
        return { html, tags: [{ tag: 'script', children: code, injectTo: 'head' }] };
      },
    },
  };
}
