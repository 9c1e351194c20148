import type { DriverOutcome, Metrics } from '../metrics/metrics';
import { inSpan } from '../telemetry/spans';
import { ProviderRejection, ProviderUnavailable, type ProviderDriver } from './driver';

/** The calls of the driver contract (`driver.ts`); anything else a driver has is not measured. */
const serverCalls = new Set([
  'catalog',
  'createServer',
  'getServer',
  'startServer',
  'stopServer',
  'rebootServer',
  'resizeServer',
  'rebuildServer',
  'deleteServer',
  'createSnapshot',
  'getSnapshot',
  'restoreSnapshot',
  'deleteSnapshot',
  'consoleUrl',
  'openConsole',
  'health',
]);
const networkingCalls = new Set([
  'createNetwork',
  'updateNetwork',
  'deleteNetwork',
  'getNetwork',
  'attachPort',
  'detachPort',
  'getPort',
  'allocatePublicIp',
  'releasePublicIp',
]);

const outcomeOf = (error: unknown): DriverOutcome =>
  error instanceof ProviderRejection
    ? 'rejected'
    : error instanceof ProviderUnavailable
      ? 'unavailable'
      : 'error';

/**
 * Each call of `target` that passes through the object made here, counted and timed. A proxy
 * rather than a subclass or a copy: the driver stays what it is (`instanceof SimDriver` still
 * holds, methods it has beyond the contract still work), and is called on itself, so that its
 * private fields are in reach.
 */
function measure<T extends object>(
  target: T,
  calls: ReadonlySet<string>,
  prefix: string,
  record: (call: string, outcome: DriverOutcome, seconds: number) => void,
  span: (call: string) => { name: string; attributes: Record<string, string> },
  inner: Record<string, () => object> = {},
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof property !== 'string') return value;
      const wrapInner = inner[property];
      if (wrapInner) return wrapInner();
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!calls.has(property)) return method.bind(object);
      const call = `${prefix}${property}`;
      const { name, attributes } = span(call);
      return (...args: unknown[]) =>
        inSpan(name, attributes, async () => {
          const started = performance.now();
          const seconds = () => (performance.now() - started) / 1000;
          try {
            const result = await method.apply(object, args);
            record(call, 'ok', seconds());
            return result;
          } catch (error) {
            record(call, outcomeOf(error), seconds());
            throw error;
          }
        });
    },
  });
}

/**
 * The driver with its calls (and its networking object's) counted by outcome and timed, each in
 * a span of its own when tracing is on.
 */
export function measuredDriver(driver: ProviderDriver, metrics: Metrics): ProviderDriver {
  const record = (call: string, outcome: DriverOutcome, seconds: number) => {
    metrics.driverCalls.inc({ driver: driver.kind, call, outcome });
    metrics.driverDuration.observe({ driver: driver.kind, call }, seconds);
  };
  const span = (call: string) => ({
    name: `driver ${driver.kind} ${call}`,
    attributes: { 'launchpad.driver': driver.kind, 'launchpad.driver.call': call },
  });
  const networking = measure(driver.networking, networkingCalls, 'networking.', record, span);
  return measure(driver, serverCalls, '', record, span, { networking: () => networking });
}
