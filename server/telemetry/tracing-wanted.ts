/**
 * Whether the standard OpenTelemetry variables ask for traces: an OTLP endpoint, or a traces
 * exporter other than `none`; never with OTEL_SDK_DISABLED=true. Read before anything of the SDK
 * is loaded, so that a server without them loads none of it.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter !== 'none';
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}
