import { and, count, desc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ProviderDiagnostics } from '../../../src/api/contract/health';
import type { Clock } from '../../clock';
import { providerOffers, providers, regions } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { virtualMachines } from '../../db/vm-schema';
import { operations } from '../../jobs/schema';
import type { ProviderHealth } from '../../providers/driver';
import type { DriverMap } from '../../providers/registry';
import { requireAdmin, type Caller } from '../tenancy/access';

/**
 * How long an engine's health is answered again without asking it: the check is public, and each
 * one signs in to Keystone or opens an SSH session to every host.
 */
export const ENGINE_HEALTH_TTL_MS = 20_000;

type HealthCache = LRUCache<string, ProviderHealth, () => Promise<ProviderHealth>>;

/** One per process's driver map (kept beside it, so it goes with it). */
const healthCaches = new WeakMap<DriverMap, HealthCache>();

/**
 * Each driver's engine health, asked once per driver (providers share their engine), at most once
 * every ENGINE_HEALTH_TTL_MS however many ask meanwhile.
 */
export async function driverHealth(
  drivers: DriverMap,
  clock: Clock,
): Promise<Map<string, ProviderHealth>> {
  let cache = healthCaches.get(drivers);
  if (!cache) {
    // Callers that come while an engine is asked share that one answer (lru-cache's fetch).
    cache = new LRUCache({
      max: drivers.size,
      ttl: ENGINE_HEALTH_TTL_MS,
      ttlResolution: 0,
      perf: { now: () => clock.now().getTime() },
      fetchMethod: (_kind, _stale, { context }) => context(),
    });
    healthCaches.set(drivers, cache);
  }
  const recent = cache;
  const entries = await Promise.all(
    [...drivers.entries()].map(async ([kind, driver]) => {
      const health = await recent.fetch(kind, {
        context: () =>
          driver.health().catch((error: unknown): ProviderHealth => ({
            ok: false,
            latencyMs: 0,
            detail: error instanceof Error ? error.message : String(error),
          })),
      });
      return [kind, health!] as const;
    }),
  );
  return new Map(entries);
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * What an Admin needs to tell a provider problem from a console one: each provider's engine
 * health and regions, the company's VMs there by status, and the company's operations.
 */
export async function providerDiagnostics(
  db: Db,
  drivers: DriverMap,
  caller: Caller,
  clock: Clock,
): Promise<ProviderDiagnostics> {
  requireAdmin(caller);
  const now = clock.now();
  const ofCompany = eq(operations.companyId, caller.companyId);
  const [health, providerRows, offered, vmCounts, statusCounts, [failed], failures] =
    await Promise.all([
      driverHealth(drivers, clock),
      db.select().from(providers).orderBy(providers.name),
      db
        .selectDistinct({ providerId: providerOffers.providerId, city: regions.city })
        .from(providerOffers)
        .innerJoin(regions, eq(regions.id, providerOffers.regionId))
        .orderBy(regions.city),
      db
        .select({
          providerId: virtualMachines.providerId,
          status: virtualMachines.status,
          n: count(),
        })
        .from(virtualMachines)
        .where(
          and(eq(virtualMachines.companyId, caller.companyId), isNull(virtualMachines.deletedAt)),
        )
        .groupBy(virtualMachines.providerId, virtualMachines.status),
      db
        .select({ status: operations.status, n: count() })
        .from(operations)
        .where(and(ofCompany, inArray(operations.status, ['pending', 'running'])))
        .groupBy(operations.status),
      db
        .select({ n: count() })
        .from(operations)
        .where(
          and(
            ofCompany,
            eq(operations.status, 'failed'),
            gt(operations.finishedAt, new Date(now.getTime() - DAY_MS)),
          ),
        ),
      db
        .select({
          id: operations.id,
          kind: operations.kind,
          vmId: operations.vmId,
          networkId: operations.networkId,
          error: operations.lastError,
          attempts: operations.attempts,
          finishedAt: operations.finishedAt,
        })
        .from(operations)
        .where(and(ofCompany, eq(operations.status, 'failed'), isNotNull(operations.finishedAt)))
        .orderBy(desc(operations.finishedAt), desc(operations.id))
        .limit(10),
    ]);
  const countOf = (status: string) => statusCounts.find((s) => s.status === status)?.n ?? 0;
  return {
    providers: providerRows.map((provider) => {
      const seen = health.get(provider.driver);
      return {
        id: provider.id,
        name: provider.name,
        driver: provider.driver,
        status: seen?.ok ? 'ok' : 'unavailable',
        latencyMs: seen?.latencyMs ?? 0,
        // The engine's own words name its hosts and addresses: they are for the operator's log
        // (the health check's), not for a company's Admins.
        detail: !seen
          ? 'No driver of this kind runs in this process'
          : seen.ok
            ? null
            : 'The provider could not be reached',
        regions: offered.filter((o) => o.providerId === provider.id).map((o) => o.city),
        vmsByStatus: Object.fromEntries(
          vmCounts.filter((v) => v.providerId === provider.id).map((v) => [v.status, v.n]),
        ),
      };
    }),
    operations: {
      pending: countOf('pending'),
      running: countOf('running'),
      failedLastDay: failed?.n ?? 0,
    },
    recentFailures: failures,
  };
}
