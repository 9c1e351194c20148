import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts and times every answer by its route pattern (`/api/v1/vms/:vmId`), never its URL: a path
 * no route matched is `unmatched`, and a method outside HTTP's usual ones `other`. An event stream
 * takes its answer over from Fastify (it never "finishes", its socket is destroyed at the end):
 * it is counted when its connection closes, and not timed, as its time is its lifetime.
 */
export function registerHttpMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  /** The console's built files, a route each (their names change with every build): one label. */
  assetsPath: string,
) {
  const counted = new WeakSet<FastifyRequest>();
  const routeOf = (request: FastifyRequest) => {
    const url = request.routeOptions.url;
    if (url === undefined) return 'unmatched';
    return url.startsWith(assetsPath) ? `${assetsPath}*` : url;
  };
  const record = (request: FastifyRequest, reply: FastifyReply, timed: boolean) => {
    if (counted.has(request)) return;
    counted.add(request);
    const method = knownMethods.has(request.method) ? request.method : 'other';
    const route = routeOf(request);
    const status = reply.raw.statusCode;
    metrics.httpRequests.inc({ method, route, status: String(status) });
    if (!timed) return;
    metrics.httpDuration.observe(
      { method, route, status_class: `${Math.floor(status / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  };
  app.addHook('onRequest', (request, reply, done) => {
    // An answer that finished is onResponse's, whenever its hooks get to it; one that did not
    // (an event stream, a client gone before the end) is counted here.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) record(request, reply, false);
    });
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    // A console's websocket is not timed either: its answer is the upgrade, its time the session's.
    record(request, reply, !request.ws);
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasBearer(authorization: string | undefined, token: string): boolean {
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer !== undefined && timingSafeEqual(digest(bearer), digest(token));
}

/**
 * `<BASE_PATH>metrics` on the public port: behind METRICS_TOKEN, and without one a 404 like any
 * unknown address (it is never the console's page, nor an open door).
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  options: { path: string; token: string | undefined; metrics: Metrics },
) {
  const { token, metrics } = options;
  app.get(options.path, { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!token) return reply.code(404).type('text/plain').send('Not found');
    if (!hasBearer(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain')
        .send('A bearer token is required');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
