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
