import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type ApiRoute, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { authMessages } from '../src/api/contract/auth';
import { createBackgroundTasks, type BackgroundTasks } from './background';
import { systemClock, type Clock } from './clock';
import { trustProxyOption, type Config } from './config';
import type { Database, Db } from './db/client';
import type { Mailer } from './mail/transport';
import { requestSerializer } from './log-serializers';
import { serializerCompiler } from './response-serializer';
import { inlineScriptSources, registerConsole } from './plugins/console';
import { registerConsoles } from './plugins/consoles';
import { registerCrossSiteGuard } from './plugins/cross-site-guard';
import { registerErrorHandling } from './plugins/errors';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security-headers';
import { deriveKey } from './domain/app-keys';
import { createEventHub } from './domain/events/hub';
import { createEventStreams, type EventStreamCaps } from './domain/events/streams';
import { dnsTxtLookup, productHost, type TxtLookup } from './domain/reseller/settings-domains';
import { findHostBrand } from './domain/reseller/settings-host-brand';
import { createSecretBox } from './domain/secrets';
import type { JobQueue } from './jobs/operations';
import { createMetrics, type Metrics } from './metrics/metrics';
import { registerMetrics } from './metrics/register';
import type { DriverMap } from './providers/registry';
import { startedReadiness, type Readiness } from './readiness';
import type { EarlyListener } from './early-listener';
import { apiRoutes } from './routes';

export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  clock?: Clock;
  /** Tests pass their own to wait for mail sent after the answer. */
  background?: BackgroundTasks;
  /** Pino options, or false in tests. */
  logger?: FastifyServerOptions['logger'];
  /** Folder of the built console; omitted in API tests. */
  consoleDir?: string;
  drivers: DriverMap;
  /** The reconciler, woken after each new operation; a process without one leaves work queued. */
  jobs?: JobQueue;
  /** The database's LISTEN, through which the event streams hear of every process's events. */
  listen: Database['listen'];
  /** Tests shorten the event streams' heartbeat (and session check). */
  eventHeartbeatMs?: number;
  /** Tests lower the event streams' caps. */
  eventStreamCaps?: Partial<EventStreamCaps>;
  /** Shared with the reconciler and the drivers; an app of its own otherwise (tests). */
  metrics?: Metrics;
  /** The process's start and shutdown, for the readiness check; omitted: started. */
  readiness?: Readiness;
  /** The port opened before the app was built (main.ts); omitted: `app.listen` or inject. */
  listener?: EarlyListener;
  /** Where a reseller's new domain's TXT record is read; omitted: the system's DNS. */
  txtLookup?: TxtLookup;
}

/**
 * The built console: from the source (server/app.ts, run by tsx and the tests), dist/ beside
 * server/; once built, this code is in dist/server/, inside the console's folder.
 */
export const defaultConsoleDir = import.meta.url.endsWith('.ts')
  ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * A request is logged as its serializer names it (no header, the URL's secrets taken out) and an
 * answer as Fastify's (its status): no header of either is ever written, so nothing needs redacting.
 */
export const loggerOptions = (level: string): LoggerOptions => ({
  level,
  serializers: { req: requestSerializer },
});

export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A console ticket (three ids, a nonce, its expiry and its MAC) can reach the default 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // One line per request, when it is answered (below), instead of one on arrival and another on the answer.
    logController: new LogController({ disableRequestLogging: true }),
    // Once closing, a request on a connection kept alive is still answered (not with a 503 the
    // load balancer would pass on), and the connection is closed after it; idle ones at once.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ...(deps.listener && { serverFactory: deps.listener.serverFactory }),
  }).withTypeProvider<ZodTypeProvider>();
  const readiness = deps.readiness ?? startedReadiness();
  // From the shutdown signal on (before the listener closes), no connection is kept for another
  // request, nor one whose request came before it: a client or load balancer reconnects, to a
  // process that stays, and the server's close waits for no idle connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (readiness.state.shuttingDown) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
  // Many clients send a JSON content type with no body (a DELETE, say): that is no body, not bad
  // JSON. Anything else goes to Fastify's own parser (with its prototype-poisoning guards).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  // Fastify's own text/plain parser would let a plain HTML form post a body.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const metrics = deps.metrics ?? createMetrics();
  registerMetrics(app, { config, metrics });

  registerSecurityHeaders(app, {
    hsts: config.cookieSecure,
    contentSecurityPolicy: {
      directives: {
        // Mantine writes inline styles; reseller logos and tab icons live on their own hosts.
        'style-src': ["'self'", "'unsafe-inline'"],
        'script-src': ["'self'", ...(deps.consoleDir ? inlineScriptSources(deps.consoleDir) : [])],
        'img-src': ["'self'", 'data:', 'https:', 'http:'],
        'upgrade-insecure-requests': null,
      },
    },
  });
  // Answers above 1 KB are compressed (brotli at a quality fit for every request, or gzip); the
  // console's assets come precompressed from the build and are left as they are.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyCookie, { secret: deriveKey(config.appSecret, 'cookies') });
  registerCrossSiteGuard(app, { publicOrigin: config.publicOrigin });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'FST_ERR_RATE_LIMIT',
      message: authMessages.tooManyRequests,
      retryAfter: context.after,
    }),
  });

  const apiPrefix = `${config.basePath}api/v1`;
  // Every API route: the isolation suite checks that each one has a cross-company case, the
  // OpenAPI suite that each is documented, the serializer's that each answer is written right.
  const routeList: ApiRoute[] = [];
  app.decorate('apiRoutes', routeList);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${apiPrefix}/`)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const name = `${method} ${route.url.slice(apiPrefix.length)}`;
      routeList.push({ name, url: route.url, method, responses });
    }
  });
  const sendIndex = deps.consoleDir
    ? await registerConsole(app, deps.consoleDir, config.basePath, {
        productHost: productHost(config),
        find: (host) => findHostBrand(deps.db, host),
      })
    : undefined;
  registerErrorHandling(app, { apiPrefix, basePath: config.basePath, sendIndex });

  const background =
    deps.background ??
    createBackgroundTasks((err, label) => app.log.error({ err }, `${label} failed`));
  app.addHook('onClose', () => background.idle());
  const hub = await createEventHub(deps.db, deps.listen, app.log);
  await registerConsoles(app, {
    config,
    db: deps.db,
    clock,
    hub,
    listen: deps.listen,
    drivers: deps.drivers,
    distDir: deps.consoleDir,
  });
  const streams = await createEventStreams({
    db: deps.db,
    clock,
    hub,
    listen: deps.listen,
    log: app.log,
    heartbeatMs: deps.eventHeartbeatMs,
    caps: deps.eventStreamCaps,
  });
  metrics.track({ eventStreams: () => streams.size, consoles: () => app.consoles.size });
  // Before the server closes: an open stream would keep it waiting for ever.
  app.addHook('preClose', () => streams.close());
  app.addHook('onClose', () => hub.close());
  await registerOpenApi(app, { apiPrefix, basePath: config.basePath });
  await app.register(apiRoutes, {
    prefix: apiPrefix,
    deps: {
      ...deps,
      clock,
      background,
      secrets: createSecretBox(config.appSecret),
      jobs: deps.jobs ?? { nudge: () => {} },
      readiness,
      streams,
      txtLookup: deps.txtLookup ?? dnsTxtLookup,
    },
  });
  // Last of the preClose hooks, as Fastify closes a server it listened on itself: after the
  // streams and consoles have ended, in-flight requests are answered, then the close resolves.
  const { listener } = deps;
  if (listener) app.addHook('preClose', () => listener.close());
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
