import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { registerHttpMetrics, registerMetricsRoute } from './http-metrics';
import { listenForMetrics } from './listener';
import type { Metrics } from './metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; tests read them, and the separate listener's port (METRICS_PORT=0). */
    metrics: Metrics & { listenerPort?: number };
  }
}

/**
 * The app's part of the metrics: every answer counted and timed, `<BASE_PATH>metrics` behind
 * METRICS_TOKEN, and the listener of METRICS_PORT opened with the app (a port already taken stops
 * the start, as the main port's would) and closed with it.
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { config: Config; metrics: Metrics },
) {
  const { config } = options;
  const metrics: FastifyInstance['metrics'] = options.metrics;
  app.decorate('metrics', metrics);
  registerHttpMetrics(app, metrics, `${config.basePath}assets/`);
  registerMetricsRoute(app, {
    path: `${config.basePath}metrics`,
    token: config.metrics.token,
    metrics,
  });
  const { port, host } = config.metrics;
  if (port === undefined) return;
  let listener: Awaited<ReturnType<typeof listenForMetrics>> | undefined;
  app.addHook('onReady', async () => {
    listener = await listenForMetrics(metrics, { host, port });
    metrics.listenerPort = listener.port;
  });
  app.addHook('onClose', async () => {
    await listener?.close();
  });
}
