import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's headers, as it sets them for a request: with options that are values (no function of
 * the request, such as a CSP nonce), they are the same for every request.
 */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.flat().some((value) => typeof value === 'function')) {
    throw new Error('A Content-Security-Policy directive made per request cannot be made once');
  }
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, value]),
    // Helmet takes out `X-Powered-By`, which Node never sets.
    removeHeader: () => {},
  };
  let failure: unknown;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      failure = error;
    },
  );
  if (failure) throw failure as Error;
  return headers;
}

/**
 * What only a page acts on (its policy, framing, window and process), left off the console's
 * scripts and stylesheets: about 600 bytes on each of the files a phone downloads first.
 * No script of the console starts a worker, which would take its policy from its own answer.
 * Without a Referrer-Policy of their own, what a script or stylesheet fetches is fetched under
 * the browser's default one; the page's policy allows it only this origin, which the referrer
 * then names to itself.
 */
const PAGE_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
];

export function dropPageOnlyHeaders(response: ServerResponse) {
  for (const name of PAGE_ONLY_HEADERS) response.removeHeader(name);
}

/**
 * Helmet's headers on every answer, on the raw response as Helmet itself would set them (an event
 * stream writes its own head). Helmet runs once, at start: running it for every request cost more
 * than a whole list query.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
