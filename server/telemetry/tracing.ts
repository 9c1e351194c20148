import { register } from 'node:module';

/**
 * OpenTelemetry traces, configured by the standard OTEL_* variables (exporter, endpoint, protocol,
 * headers, sampler, service name and resource attributes) as the Node SDK reads them: a span for
 * each request (Fastify's route, hooks and handler, under the HTTP server's), the HTTP calls the
 * server makes (OpenStack's through fetch, webhooks') and the PostgreSQL statements.
 *
 * Instrumenting means hooking the modules as they load: this runs before the server's modules are
 * imported (server/entry.ts), and registers the loader hook that reaches ES modules too.
 */
const isScrape = (url: string | undefined) => (url ?? '').split('?')[0]!.endsWith('/metrics');

export async function startTracing() {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [
    { NodeSDK },
    { HttpInstrumentation },
    { UndiciInstrumentation },
    { PgInstrumentation },
    fastifyOtel,
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    // fetch (the OpenStack driver's calls) is undici's, not the http module's.
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-pg'),
    import('@fastify/otel'),
  ]);
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME, when set, still wins: the SDK reads the variables over this default.
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : 'launchpad',
    instrumentations: [
      // Scrapes (every few seconds, on either port) are no request anyone traces.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => isScrape(request.url),
      }),
      new UndiciInstrumentation(),
      new fastifyOtel.FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: ({ url }) => isScrape(url),
      }),
      // Statements outside a request or an operation step are the workers' looks for due work,
      // every second: a trace each would bury the others.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return sdk;
}
