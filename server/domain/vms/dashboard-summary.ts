import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DashboardSummary } from '../../../src/api/contract/dashboard';
import { vmStatusGroups } from '../../../src/api/contract/vms';
import type { Db } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { virtualMachines as vm, vmSizePeriods } from '../../db/vm-schema';
import { visibleTeamIds, type Caller } from '../tenancy/access';

/** Counts the rows whose status is one of the group's. */
const countOf = (statuses: readonly string[]) =>
  sql<number>`count(*) filter (where ${vm.status} in (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )}))`.mapWith(Number);

/**
 * The Dashboard's figures for what the caller may see: the VMs by status, the company's networks,
 * the public addresses of the VMs' interfaces, and the hours the VMs existed this month up to now.
 * An Admin counts the company's VMs; anyone else their teams' (as the VM list and the usage do).
 */
export async function getDashboardSummary(
  db: Db,
  caller: Caller,
  now: Date,
): Promise<DashboardSummary> {
  const teams = await visibleTeamIds(db, caller);
  const scope: SQL | undefined =
    teams === 'all' ? undefined : teams.length > 0 ? inArray(vm.teamId, teams) : sql`false`;
  const liveVms = and(eq(vm.companyId, caller.companyId), isNull(vm.deletedAt), scope);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

  const [vms, networkCount, ipCount, hours] = await Promise.all([
    db
      .select({
        total: count(),
        running: countOf(vmStatusGroups.running),
        stopped: countOf(vmStatusGroups.stopped),
        error: countOf(vmStatusGroups.error),
      })
      .from(vm)
      .where(liveVms),
    db
      .select({ n: count() })
      .from(networks)
      .where(and(eq(networks.companyId, caller.companyId), isNull(networks.deletedAt))),
    db
      .select({ n: count() })
      .from(publicIps)
      .innerJoin(vmInterfaces, eq(vmInterfaces.id, publicIps.interfaceId))
      .innerJoin(vm, eq(vm.id, vmInterfaces.vmId))
      .where(and(eq(publicIps.companyId, caller.companyId), liveVms)),
    // Each size period's part of [the month's start, now], deleted VMs included: their hours
    // were used this month all the same.
    db
      .select({
        seconds: sql<number>`coalesce(sum(extract(epoch from
          least(coalesce(${vmSizePeriods.endedAt}, ${at(now)}), ${at(now)})
          - greatest(${vmSizePeriods.startedAt}, ${at(monthStart)}))), 0)`.mapWith(Number),
      })
      .from(vmSizePeriods)
      .innerJoin(vm, eq(vm.id, vmSizePeriods.vmId))
      .where(
        and(
          eq(vmSizePeriods.companyId, caller.companyId),
          scope,
          sql`${vmSizePeriods.startedAt} < ${at(now)}`,
          sql`(${vmSizePeriods.endedAt} is null or ${vmSizePeriods.endedAt} > ${at(monthStart)})`,
        ),
      ),
  ]);
  return {
    vms: vms[0] ?? { total: 0, running: 0, stopped: 0, error: 0 },
    networks: networkCount[0]?.n ?? 0,
    publicIps: ipCount[0]?.n ?? 0,
    // To the hundredth of an hour (36 seconds): enough for any display.
    vmHours: Math.round(((hours[0]?.seconds ?? 0) / 3600) * 100) / 100,
  };
}
