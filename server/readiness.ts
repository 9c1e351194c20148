import type { Readiness as ReadinessReport } from '../src/api/contract/health';
/**
 * How far this process is from taking traffic, for the readiness check (`/healthCheck/ready`):
 * `main.ts` marks each stage of the start as it ends and the start of the shutdown. Liveness
 * (`/healthCheck/api`) asks none of this: a process that is starting or leaving is alive.
 */
export interface Readiness {
  /** The migrations are applied. */
  migrated(): void;
  /** The catalogue (providers, regions, images, sizes) is in line with the drivers. */
  catalogueSynced(): void;
  /** The process is leaving: load balancers must stop sending it requests. */
  beginShutdown(): void;
  readonly state: Readonly<ReadinessState>;
}

export interface ReadinessState {
  migrated: boolean;
  catalogueSynced: boolean;
  shuttingDown: boolean;
}

export function createReadiness(initial: Partial<ReadinessState> = {}): Readiness {
  const state: ReadinessState = {
    migrated: false,
    catalogueSynced: false,
    shuttingDown: false,
    ...initial,
  };
  return {
    migrated: () => void (state.migrated = true),
    catalogueSynced: () => void (state.catalogueSynced = true),
    beginShutdown: () => void (state.shuttingDown = true),
    state,
  };
}

/** An app built by hand (the tests) is built on a migrated database with its catalogue synced. */
export const startedReadiness = () => createReadiness({ migrated: true, catalogueSynced: true });

/**
 * The readiness check's answer from the start's stages and whether the database answered: 200
 * with every check `ok`, else 503 naming what fails. The early listener (a start under way, no
 * database yet) and the route answer with it alike.
 */
export function readinessReport(state: ReadinessState, database: 'ok' | 'unavailable') {
  const checks: ReadinessReport['checks'] = {
    migrations: state.migrated ? 'ok' : 'pending',
    database,
    catalogue: state.catalogueSynced ? 'ok' : 'pending',
    process: state.shuttingDown ? 'shuttingDown' : 'ok',
  };
  const failing = [
    checks.process !== 'ok' && 'shutting down',
    checks.migrations !== 'ok' && 'migrations pending',
    checks.database !== 'ok' && 'database unavailable',
    checks.catalogue !== 'ok' && 'catalogue not synced',
  ].filter((reason) => reason !== false);
  const ready = failing.length === 0;
  return {
    statusCode: ready ? (200 as const) : (503 as const),
    body: {
      data: { status: ready ? ('ready' as const) : ('unavailable' as const), checks },
      message: ready ? 'Ready' : `Not ready: ${failing.join(', ')}`,
    },
  };
}

/** The liveness check's answer: the process answers, and which release it runs. */
export const livenessReport = (version: string) => ({
  data: { status: 'ok' as const, version },
  message: 'API is healthy',
});
