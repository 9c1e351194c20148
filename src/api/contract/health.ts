import { z } from './zod';
import { envelope } from './envelope';

export const healthResponse = envelope(
  z.object({ status: z.enum(['ok', 'unavailable']), latencyMs: z.optional(z.number()) }),
);

/** `GET /healthCheck/api`: the process answers, and which release it runs (package.json's). */
export const apiHealthResponse = envelope(
  z.object({ status: z.literal('ok'), version: z.string() }),
);

const reachability = z.enum(['ok', 'unavailable']);

/**
 * `GET /healthCheck/ready`: whether this process should be sent requests (a load balancer's or a
 * Kubernetes readiness probe), each check named; 503 whenever one is not `ok`. Liveness is
 * `/healthCheck/api`.
 */
export const readinessResponse = envelope(
  z.object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.object({
      /** The database's migrations are applied. */
      migrations: z.enum(['ok', 'pending']),
      /** The database answers a query now. */
      database: reachability,
      /** The catalogue (providers, regions, images, sizes) is synced from the drivers. */
      catalogue: z.enum(['ok', 'pending']),
      /** `shuttingDown` from the shutdown signal on: requests belong to the other processes. */
      process: z.enum(['ok', 'shuttingDown']),
    }),
  }),
);
export type Readiness = z.infer<typeof readinessResponse>['data'];

/** `GET /healthCheck/remoteAPI`: whether each provider driver's engine answers (no details). */
export const remoteHealthResponse = envelope(
  z.object({
    status: reachability,
    drivers: z.array(z.object({ driver: z.string(), status: reachability, latencyMs: z.number() })),
  }),
);

/** `GET /debug/debugSharktech`: provider diagnostics for a company's Admins. */
export const providerDiagnosticsResponse = envelope(
  z.object({
    providers: z.array(
      z.object({
        id: z.int(),
        name: z.string(),
        driver: z.string(),
        status: reachability,
        latencyMs: z.number(),
        /** What the engine said when it did not answer well. */
        detail: z.nullable(z.string()),
        regions: z.array(z.string()),
        /** The company's VMs at this provider, by status. */
        vmsByStatus: z.record(z.string(), z.int()),
      }),
    ),
    operations: z.object({
      pending: z.int(),
      running: z.int(),
      failedLastDay: z.int(),
    }),
    /** The company's latest failed operations, newest first. */
    recentFailures: z.array(
      z.object({
        id: z.int(),
        kind: z.string(),
        vmId: z.nullable(z.int()),
        networkId: z.nullable(z.int()),
        error: z.nullable(z.string()),
        attempts: z.int(),
        finishedAt: z.nullable(z.date()),
      }),
    ),
  }),
);
export type ProviderDiagnostics = z.infer<typeof providerDiagnosticsResponse>['data'];
