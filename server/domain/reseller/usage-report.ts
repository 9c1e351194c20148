import { and, eq } from 'drizzle-orm';
import {
  usageMessages,
  type CompanyUsage,
  type PublicIpUsagePeriod,
  type SnapshotUsagePeriod,
  type Usage,
  type VmUsagePeriod,
} from '../../../src/api/contract/usage';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema';
import { notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';
import { customersOf, resellerScope } from './reseller-scope';
import {
  readCompanies,
  readPublicIpPeriods,
  readRunPeriods,
  readSizePeriods,
  readSnapshotPeriods,
  type PublicIpPeriodRow,
  type SizePeriodRow,
  type SnapshotPeriodRow,
} from './usage-read';
import {
  clip,
  coveredMs,
  gbHoursOf,
  gbOf,
  hoursOf,
  usageWindow,
  wholeMinutes,
  type StoredPeriod,
  type UsageWindow,
} from './usage-window';

/**
 * Usage for billing (`GET /reseller/usage`, docs/billing.md): for each customer of the caller's
 * reseller (never its staff company, never another reseller's), each VM's size periods, each
 * public address's periods and each snapshot's in the month, with the minutes the VM existed and
 * ran in each.
 */
export async function reportUsage(
  db: Db,
  caller: Caller,
  query: { month: string; companyId?: number | undefined },
  now: Date,
): Promise<Usage> {
  const window = usageWindow(query.month, now);
  const scope = await resellerScope(db, caller);
  const which = and(
    customersOf(scope),
    query.companyId === undefined ? undefined : eq(companies.id, query.companyId),
  )!;
  const [customers, sizes, runs, addresses, snapshots] = await Promise.all([
    readCompanies(db, which),
    readSizePeriods(db, which, window),
    readRunPeriods(db, which, window),
    readPublicIpPeriods(db, which, window),
    readSnapshotPeriods(db, which, window),
  ]);
  if (query.companyId !== undefined && customers.length === 0) {
    throw notFound(usageMessages.companyNotFound);
  }

  const runsByVm = groupBy(runs, (run) => run.vmId);
  const vmsByCompany = groupBy(
    sizes.flatMap((row) => vmPeriod(row, window, runsByVm.get(row.vmId) ?? [])),
    (period) => period.companyId,
  );
  const ipsByCompany = groupBy(
    addresses.flatMap((row) => ipPeriod(row, window)),
    (period) => period.companyId,
  );
  const snapshotsByCompany = groupBy(
    snapshots.flatMap((row) => snapshotPeriod(row, window)),
    (period) => period.companyId,
  );
  return {
    month: window.month,
    from: window.from,
    to: window.to,
    companies: customers.map((company) =>
      companyUsage(company, {
        vms: vmsByCompany.get(company.id) ?? [],
        publicIps: ipsByCompany.get(company.id) ?? [],
        snapshots: snapshotsByCompany.get(company.id) ?? [],
      }),
    ),
  };
}

type Counted<T> = T & { companyId: number };

function vmPeriod(
  row: SizePeriodRow,
  window: UsageWindow,
  runs: readonly StoredPeriod[],
): Counted<VmUsagePeriod>[] {
  const span = clip(row, window);
  if (!span) return [];
  const existedMinutes = wholeMinutes(span.to.getTime() - span.from.getTime());
  const ranMinutes = wholeMinutes(coveredMs(span, runs));
  const { startedAt: _startedAt, endedAt: _endedAt, ...vm } = row;
  return [
    {
      ...vm,
      ...span,
      existedMinutes,
      ranMinutes,
      existedHours: hoursOf(existedMinutes),
      ranHours: hoursOf(ranMinutes),
    },
  ];
}

function ipPeriod(row: PublicIpPeriodRow, window: UsageWindow): Counted<PublicIpUsagePeriod>[] {
  const span = clip(row, window);
  if (!span) return [];
  const minutes = wholeMinutes(span.to.getTime() - span.from.getTime());
  const { startedAt: _startedAt, endedAt: _endedAt, ...address } = row;
  return [{ ...address, ...span, minutes, hours: hoursOf(minutes) }];
}

/** Bytes held for whole minutes: what a snapshot's GB-hours are made of. */
const byteMinutes = (period: { minutes: number; sizeBytes: number }) =>
  BigInt(period.minutes) * BigInt(period.sizeBytes);

function snapshotPeriod(
  row: SnapshotPeriodRow,
  window: UsageWindow,
): Counted<SnapshotUsagePeriod>[] {
  const span = clip(row, window);
  if (!span) return [];
  const minutes = wholeMinutes(span.to.getTime() - span.from.getTime());
  const { startedAt: _startedAt, endedAt: _endedAt, ...snapshot } = row;
  return [
    {
      ...snapshot,
      sizeGb: gbOf(row.sizeBytes),
      ...span,
      minutes,
      hours: hoursOf(minutes),
      gbHours: gbHoursOf(byteMinutes({ minutes, sizeBytes: row.sizeBytes })),
    },
  ];
}

/** The company's rows and its totals, summed in minutes and then made hours. */
function companyUsage(
  company: { id: number; externalId: string; name: string },
  rows: {
    vms: Counted<VmUsagePeriod>[];
    publicIps: Counted<PublicIpUsagePeriod>[];
    snapshots: Counted<SnapshotUsagePeriod>[];
  },
): CompanyUsage {
  const { vms, publicIps, snapshots } = rows;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    companyId: company.id,
    externalId: company.externalId,
    name: company.name,
    vms: vms.map(({ companyId: _companyId, ...period }) => period),
    publicIps: publicIps.map(({ companyId: _companyId, ...period }) => period),
    snapshots: snapshots.map(({ companyId: _companyId, ...period }) => period),
    totals: {
      vmExistedHours: hoursOf(sum(vms.map((vm) => vm.existedMinutes))),
      vmRanHours: hoursOf(sum(vms.map((vm) => vm.ranMinutes))),
      vcpuRanHours: hoursOf(sum(vms.map((vm) => vm.ranMinutes * vm.vcpus))),
      ramGbRanHours: hoursOf(sum(vms.map((vm) => vm.ranMinutes * vm.ramGb))),
      publicIpHours: hoursOf(sum(publicIps.map((ip) => ip.minutes))),
      snapshotGbHours: gbHoursOf(
        snapshots.reduce((total, snapshot) => total + byteMinutes(snapshot), 0n),
      ),
    },
  };
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
