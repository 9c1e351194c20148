import {
  and,
  asc,
  eq,
  gt,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
  type Column,
  type SQL,
} from 'drizzle-orm';
import { configurations, regions } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { publicIpPeriods } from '../../db/network-schema';
import { companies } from '../../db/schema';
import { snapshotPeriods, vmSnapshots } from '../../db/self-service-schema';
import { virtualMachines, vmRunPeriods, vmSizePeriods } from '../../db/vm-schema';
import type { UsageWindow } from './usage-window';

/**
 * The history a month's usage is counted from, for a set of companies (`which`, a condition on
 * `companies`): five statements whatever the number of companies, each reading through the
 * `(company_id, started_at)` index of its table the periods that overlap the window.
 */

/** Moments before 1970 hold no history; PostgreSQL cannot take a year 0 (`0000-01`). */
const EPOCH = new Date(0);
const bounded = (date: Date) => (date < EPOCH ? EPOCH : date);

/** Started before the window's end and not ended before its start. */
function overlapping(table: { startedAt: Column; endedAt: Column }, window: UsageWindow): SQL {
  return and(
    lt(table.startedAt, bounded(window.to)),
    or(isNull(table.endedAt), gt(table.endedAt, bounded(window.from))),
  )!;
}

export function readCompanies(db: Db, which: SQL) {
  return db
    .select({ id: companies.id, externalId: companies.externalId, name: companies.name })
    .from(companies)
    .where(which)
    .orderBy(asc(companies.nameKey), asc(companies.id));
}

/** Each size period with its VM, region and size, by company, VM name and time. */
export function readSizePeriods(db: Db, which: SQL, window: UsageWindow) {
  return db
    .select({
      companyId: vmSizePeriods.companyId,
      vmId: vmSizePeriods.vmId,
      vmName: virtualMachines.name,
      vmDeleted: sql<boolean>`${isNotNull(virtualMachines.deletedAt)}`,
      region: regions.city,
      configurationId: configurations.id,
      size: configurations.name,
      vcpus: configurations.cpu,
      ramGb: configurations.ram,
      diskGb: configurations.disk,
      startedAt: vmSizePeriods.startedAt,
      endedAt: vmSizePeriods.endedAt,
    })
    .from(vmSizePeriods)
    .innerJoin(companies, eq(companies.id, vmSizePeriods.companyId))
    .innerJoin(virtualMachines, eq(virtualMachines.id, vmSizePeriods.vmId))
    .innerJoin(regions, eq(regions.id, virtualMachines.regionId))
    .innerJoin(configurations, eq(configurations.id, vmSizePeriods.configurationId))
    .where(and(which, overlapping(vmSizePeriods, window)))
    .orderBy(
      asc(vmSizePeriods.companyId),
      asc(virtualMachines.nameKey),
      asc(vmSizePeriods.vmId),
      asc(vmSizePeriods.startedAt),
    );
}

export type SizePeriodRow = Awaited<ReturnType<typeof readSizePeriods>>[number];

export function readRunPeriods(db: Db, which: SQL, window: UsageWindow) {
  return db
    .select({
      vmId: vmRunPeriods.vmId,
      startedAt: vmRunPeriods.startedAt,
      endedAt: vmRunPeriods.endedAt,
    })
    .from(vmRunPeriods)
    .innerJoin(companies, eq(companies.id, vmRunPeriods.companyId))
    .where(and(which, overlapping(vmRunPeriods, window)));
}

/** Each address period, by company, time and address. */
export function readPublicIpPeriods(db: Db, which: SQL, window: UsageWindow) {
  return db
    .select({
      companyId: publicIpPeriods.companyId,
      address: publicIpPeriods.address,
      region: regions.city,
      vmId: publicIpPeriods.vmId,
      networkId: publicIpPeriods.networkId,
      startedAt: publicIpPeriods.startedAt,
      endedAt: publicIpPeriods.endedAt,
    })
    .from(publicIpPeriods)
    .innerJoin(companies, eq(companies.id, publicIpPeriods.companyId))
    .innerJoin(regions, eq(regions.id, publicIpPeriods.regionId))
    .where(and(which, overlapping(publicIpPeriods, window)))
    .orderBy(
      asc(publicIpPeriods.companyId),
      asc(publicIpPeriods.startedAt),
      asc(publicIpPeriods.address),
      asc(publicIpPeriods.id),
    );
}

export type PublicIpPeriodRow = Awaited<ReturnType<typeof readPublicIpPeriods>>[number];

/** Each snapshot period with its snapshot, VM and region, by company, VM name and time. */
export function readSnapshotPeriods(db: Db, which: SQL, window: UsageWindow) {
  return db
    .select({
      companyId: snapshotPeriods.companyId,
      snapshotId: snapshotPeriods.snapshotId,
      snapshotName: vmSnapshots.name,
      vmId: snapshotPeriods.vmId,
      vmName: virtualMachines.name,
      vmDeleted: sql<boolean>`${isNotNull(virtualMachines.deletedAt)}`,
      region: regions.city,
      sizeBytes: snapshotPeriods.sizeBytes,
      startedAt: snapshotPeriods.startedAt,
      endedAt: snapshotPeriods.endedAt,
    })
    .from(snapshotPeriods)
    .innerJoin(companies, eq(companies.id, snapshotPeriods.companyId))
    .innerJoin(vmSnapshots, eq(vmSnapshots.id, snapshotPeriods.snapshotId))
    .innerJoin(virtualMachines, eq(virtualMachines.id, snapshotPeriods.vmId))
    .innerJoin(regions, eq(regions.id, virtualMachines.regionId))
    .where(and(which, overlapping(snapshotPeriods, window)))
    .orderBy(
      asc(snapshotPeriods.companyId),
      asc(virtualMachines.nameKey),
      asc(snapshotPeriods.vmId),
      asc(snapshotPeriods.startedAt),
      asc(snapshotPeriods.snapshotId),
    );
}

export type SnapshotPeriodRow = Awaited<ReturnType<typeof readSnapshotPeriods>>[number];
