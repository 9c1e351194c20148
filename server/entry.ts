import { tracingWanted } from './telemetry/tracing-wanted';

/**
 * The built server's entry (dist/server/main.js, vite.server.config.ts). Tracing, when the
 * OTEL_* variables ask for it, must hook the modules before they load: it starts first, and only
 * then is the server (main.ts) imported. Without them the SDK is not loaded (only its API, whose
 * spans do nothing).
 */
if (tracingWanted(process.env)) {
  const { startTracing } = await import('./telemetry/tracing');
  await startTracing();
}
await import('./main');
