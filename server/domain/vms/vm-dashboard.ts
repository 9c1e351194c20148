import { and, countDistinct, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import {
  sizeKeys,
  type DashboardData,
  type SizeCounts,
  type SizeKey,
} from '../../../src/api/contract/vms';
import { configurations } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { virtualMachines, vmSizePeriods } from '../../db/vm-schema';
import { visibleTeamIds, type Caller } from '../tenancy/access';

/** Calendar periods in UTC, [start, end); nothing has started after now. */
function periods(now: Date) {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const monthStart = new Date(Date.UTC(year, month, 1));
  return {
    currentMonth: { start: monthStart, end: new Date(Date.UTC(year, month + 1, 1)) },
    previousMonth: { start: new Date(Date.UTC(year, month - 1, 1)), end: monthStart },
    ytd: { start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) },
  };
}

const zeroCounts = (): SizeCounts =>
  Object.fromEntries(sizeKeys.map((key) => [key, 0])) as SizeCounts;

/**
 * For each size, how many VMs had that size at any moment of the period (ARCHITECTURE.md): a VM
 * counts in every size it had during the period, once per size, deleted or not. Admins count the
 * whole company; others the VMs of their teams.
 */
export async function getDashboardData(db: Db, caller: Caller, now: Date): Promise<DashboardData> {
  const teams = await visibleTeamIds(db, caller);
  const scope = and(
    eq(vmSizePeriods.companyId, caller.companyId),
    teams === 'all'
      ? undefined
      : teams.length > 0
        ? inArray(virtualMachines.teamId, teams)
        : sql`false`,
  );
  const counted = async ({ start, end }: { start: Date; end: Date }): Promise<SizeCounts> => {
    const rows = await db
      .select({ key: configurations.key, n: countDistinct(vmSizePeriods.vmId) })
      .from(vmSizePeriods)
      .innerJoin(virtualMachines, eq(virtualMachines.id, vmSizePeriods.vmId))
      .innerJoin(configurations, eq(configurations.id, vmSizePeriods.configurationId))
      .where(
        and(
          scope,
          lt(vmSizePeriods.startedAt, end),
          or(isNull(vmSizePeriods.endedAt), gt(vmSizePeriods.endedAt, start)),
        ),
      )
      .groupBy(configurations.key);
    const counts = zeroCounts();
    for (const row of rows) counts[row.key as SizeKey] = row.n;
    return counts;
  };
  const p = periods(now);
  const [currentMonth, previousMonth, ytd] = await Promise.all([
    counted(p.currentMonth),
    counted(p.previousMonth),
    counted(p.ytd),
  ]);
  return { currentMonth, previousMonth, ytd };
}
