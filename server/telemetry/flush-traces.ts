import { ProxyTracerProvider, trace } from '@opentelemetry/api';

/** Past this, the process exits without the spans an unreachable collector did not take. */
const FLUSH_TIMEOUT_MS = 2_000;

/**
 * Sends the spans the SDK still holds (it exports them in batches, every few seconds) before the
 * process exits: the last requests of a process that is stopped are those an operator looks for.
 * Without tracing the provider is the API's no-op, and there is nothing to send.
 */
export async function flushTraces(): Promise<void> {
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (!('forceFlush' in provider) || typeof provider.forceFlush !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    (provider.forceFlush as () => Promise<void>).call(provider).catch(() => {}),
    new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS))),
  ]).finally(() => clearTimeout(timer));
}
