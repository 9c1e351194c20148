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
