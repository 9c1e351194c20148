import { z } from 'zod';
import { envelope } from './envelope';

export const healthResponse = envelope(
  z.object({ status: z.enum(['ok', 'unavailable']), latencyMs: z.number().optional() }),
);

const reachability = z.enum(['ok', 'unavailable']);

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
        id: z.number().int(),
        name: z.string(),
        driver: z.string(),
        status: reachability,
        latencyMs: z.number(),
        /** What the engine said when it did not answer well. */
        detail: z.string().nullable(),
        regions: z.array(z.string()),
        /** The company's VMs at this provider, by status. */
        vmsByStatus: z.record(z.string(), z.number().int()),
      }),
    ),
    operations: z.object({
      pending: z.number().int(),
      running: z.number().int(),
      failedLastDay: z.number().int(),
    }),
    /** The company's latest failed operations, newest first. */
    recentFailures: z.array(
      z.object({
        id: z.number().int(),
        kind: z.string(),
        vmId: z.number().int().nullable(),
        networkId: z.number().int().nullable(),
        error: z.string().nullable(),
        attempts: z.number().int(),
        finishedAt: z.date().nullable(),
      }),
    ),
  }),
);
export type ProviderDiagnostics = z.infer<typeof providerDiagnosticsResponse>['data'];
