import type { Readiness } from './readiness';

/** A background worker that claims work with leases (the reconciler, the webhook deliveries). */
export interface LeasingWorker {
  /** Claims no more; resolves once the steps under way have ended. */
  stop(): Promise<void>;
  /** Hands back in one statement whatever this worker still holds; answers how many. */
  releaseLeases(): Promise<number>;
}

export interface ShutdownDeps {
  readiness: Readiness;
  workers: Record<string, LeasingWorker>;
  /**
   * Stops accepting connections, tells event streams to reconnect elsewhere, closes the guest
   * consoles, and resolves once the requests in flight are answered (Fastify's close).
   */
  closeServer(): Promise<void>;
  closeDatabase(): Promise<void>;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** SHUTDOWN_DELAY_SECONDS: accepting still, not ready, so that load balancers stop sending. */
  delayMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: the whole shutdown; past it the process exits anyway. */
  timeoutMs: number;
  /** How long the workers' steps under way may take before their leases are handed back. */
  stepGraceMs?: number;
  exit(code: number): void;
}

/**
 * A step under way (a driver call) is given this long to end; then its lease is handed back
 * anyway, far sooner than it would run out (15 s for an operation, 60 s for a webhook).
 */
export const STEP_GRACE_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What the process does on SIGTERM or SIGINT, for a restart that no client notices:
 *
 * 1. readiness answers 503 at once, and every answer says `Connection: close`;
 * 2. the workers claim nothing more, and hand back what they hold (after the steps under way, for
 *    up to `stepGraceMs`), so that another process takes the operations over at once;
 * 3. after `delayMs`, the server stops accepting, tells event streams to reconnect, closes the
 *    consoles and answers the requests in flight;
 * 4. the database is closed and the process exits 0.
 *
 * Past `timeoutMs` it exits 1 whatever is left; a second signal ends it at once. Answers the
 * signal handler.
 */
export function gracefulShutdown(deps: ShutdownDeps): (signal: string) => void {
  const { log, workers } = deps;
  let began: number | undefined;

  async function handBack(name: string, worker: LeasingWorker) {
    const stopped = worker.stop().catch((error: unknown) => {
      log.warn({ worker: name, error: String(error) }, 'shutdown: a worker did not stop cleanly');
    });
    await Promise.race([stopped, sleep(deps.stepGraceMs ?? STEP_GRACE_MS)]);
    try {
      const released = await worker.releaseLeases();
      if (released > 0) log.info({ worker: name, released }, 'shutdown: leases handed back');
    } catch (error) {
      // The leases then run out as after a crash; the shutdown goes on.
      log.warn({ worker: name, error: String(error) }, 'shutdown: leases not handed back');
    }
  }

  async function run() {
    deps.readiness.beginShutdown();
    const work = Promise.all(Object.entries(workers).map(([name, w]) => handBack(name, w)));
    const server = sleep(deps.delayMs).then(() => deps.closeServer());
    await Promise.all([work, server]);
    await deps.closeDatabase();
  }

  return (signal) => {
    if (began !== undefined) {
      log.warn({ signal }, 'shutdown: second signal, exiting now');
      deps.exit(1);
      return;
    }
    began = Date.now();
    log.info({ signal, delayMs: deps.delayMs, timeoutMs: deps.timeoutMs }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: deps.timeoutMs }, 'shutdown: timed out, exiting anyway');
      deps.exit(1);
    }, deps.timeoutMs);
    run().then(
      () => {
        clearTimeout(deadline);
        log.info({ ms: Date.now() - began! }, 'shut down');
        deps.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log.error({ err: error }, 'shutdown failed');
        deps.exit(1);
      },
    );
  };
}
