import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/** The product's own spans; without the SDK started (server/entry.ts) the API makes them no-ops. */
const tracer = trace.getTracer('launchpad');

/**
 * Runs `work` in a span of its own, the parent of what it does (statements, HTTP calls): the
 * work that no request carries (the reconciler's steps) gets a trace, and a driver call a span in
 * the trace of whoever made it. A throw marks the span failed and goes on.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.name : 'error',
      });
      throw error;
    } finally {
      span.end();
    }
  });
}
