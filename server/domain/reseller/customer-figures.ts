import { and, count, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { CustomerRow } from '../../../src/api/contract/reseller';
import { vmStatusGroups } from '../../../src/api/contract/vms';
import { configurations } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { publicIps } from '../../db/network-schema';
import { companies, users } from '../../db/schema';
import { virtualMachines as vm, vmSizePeriods as size } from '../../db/vm-schema';
import { keptCount } from '../lists/list-paging';
import { currentWindow, hoursOf } from './usage-window';

/**
 * What the Customers list and a customer's page show of each company. The users and VMs are the
 * counts the triggers keep (the list sorts by them); the rest is read for the page's rows only.
 */

/** A customer's own columns and kept counts, for a select from `companies`. */
export const customerColumns = (db: Db) => ({
  id: companies.id,
  name: companies.name,
  logoUrl: companies.logoUrl,
  createdAt: companies.createdAt,
  suspendedAt: companies.suspendedAt,
  users: keptCount(db, 'users', companies.id),
  /** Not deleted, whatever their state. */
  vmsTotal: keptCount(db, 'vms', companies.id),
});

type CustomerBase = Pick<
  CustomerRow,
  'id' | 'name' | 'logoUrl' | 'createdAt' | 'suspendedAt' | 'users' | 'vmsTotal'
>;
type Figures = Pick<
  CustomerRow,
  'admins' | 'vmsRunning' | 'vcpus' | 'ramGb' | 'publicIps' | 'vmHoursThisMonth'
>;

const none: Figures = {
  admins: 0,
  vmsRunning: 0,
  vcpus: 0,
  ramGb: 0,
  publicIps: 0,
  vmHoursThisMonth: 0,
};

const asInt = (value: unknown) => sql<number>`${value}`.mapWith(Number);

/**
 * The minutes each company's VMs existed in the current month up to now, as usage for billing
 * counts them (`usage-report.ts`: each size period clipped to the month, rounded to whole minutes,
 * then summed), in one statement for the page's companies.
 */
function existedMinutesThisMonth(db: Db, ids: number[], now: Date) {
  const window = currentWindow(now);
  const from = sql`${window.from.toISOString()}::timestamptz`;
  const to = sql`${window.to.toISOString()}::timestamptz`;
  const clipped = sql`least(coalesce(${size.endedAt}, ${to}), ${to}) - greatest(${size.startedAt}, ${from})`;
  return db
    .select({
      companyId: size.companyId,
      minutes: asInt(sql`coalesce(sum(round(extract(epoch from ${clipped})::numeric / 60)), 0)`),
    })
    .from(size)
    .where(
      and(
        inArray(size.companyId, ids),
        lt(size.startedAt, window.to),
        or(isNull(size.endedAt), gt(size.endedAt, window.from)),
      ),
    )
    .groupBy(size.companyId);
}

/**
 * The rows with their Admins (activated or invited), running VMs, the vCPUs and RAM of their VMs
 * from their sizes whatever their state, the public addresses they hold (an interface's NAT or a
 * network's SNAT, being allocated or released included: the region's pool is short of them), and
 * the hours their VMs existed this month (deleted ones included: usage's `vmExistedHours`).
 */
export async function withFigures(db: Db, rows: CustomerBase[], now: Date): Promise<CustomerRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [admins, vms, addresses, existed] = await Promise.all([
    db
      .select({ companyId: users.companyId, n: count() })
      .from(users)
      .where(and(inArray(users.companyId, ids), eq(users.isAdmin, true)))
      .groupBy(users.companyId),
    db
      .select({
        companyId: vm.companyId,
        running: asInt(
          sql`count(*) filter (where ${inArray(vm.status, [...vmStatusGroups.running])})`,
        ),
        vcpus: asInt(sql`coalesce(sum(${configurations.cpu}), 0)`),
        ramGb: asInt(sql`coalesce(sum(${configurations.ram}), 0)`),
      })
      .from(vm)
      .innerJoin(configurations, eq(configurations.id, vm.configurationId))
      .where(and(inArray(vm.companyId, ids), isNull(vm.deletedAt)))
      .groupBy(vm.companyId),
    db
      .select({ companyId: publicIps.companyId, n: count() })
      .from(publicIps)
      .where(inArray(publicIps.companyId, ids))
      .groupBy(publicIps.companyId),
    existedMinutesThisMonth(db, ids, now),
  ]);
  const figures = new Map<number, Figures>(ids.map((id) => [id, { ...none }]));
  for (const { companyId, n } of admins) figures.get(companyId)!.admins = n;
  for (const { companyId, running, vcpus, ramGb } of vms) {
    Object.assign(figures.get(companyId)!, { vmsRunning: running, vcpus, ramGb });
  }
  for (const { companyId, n } of addresses) figures.get(companyId)!.publicIps = n;
  for (const { companyId, minutes } of existed) {
    figures.get(companyId)!.vmHoursThisMonth = hoursOf(minutes);
  }
  return rows.map((row) => ({
    ...row,
    ...figures.get(row.id)!,
    state: row.suspendedAt ? 'suspended' : 'active',
  }));
}
