import type { ActivityEvent } from '../../../src/api/contract/activity';
import type {
  CompanyUsage,
  PublicIpUsagePeriod,
  SnapshotUsagePeriod,
  VmUsagePeriod,
} from '../../../src/api/contract/usage';
import { api, fail, http, ok, server } from './msw';

/** Moments as the wire carries them. */
type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/** One VM in one size during the month, as the API sends it. */
export const aVmPeriod = (overrides: Partial<Wire<VmUsagePeriod>> = {}): Wire<VmUsagePeriod> => ({
  vmId: 12,
  vmName: 'web-01',
  vmDeleted: false,
  region: 'Frankfurt',
  configurationId: 2,
  size: 'Standard 2 vCPU / 4 GB',
  vcpus: 2,
  ramGb: 4,
  diskGb: 80,
  from: '2026-10-01T00:00:00.000Z',
  to: '2026-10-11T00:00:00.000Z',
  existedMinutes: 14_400,
  ranMinutes: 12_000,
  existedHours: 240,
  ranHours: 200,
  ...overrides,
});

export const aPublicIpPeriod = (
  overrides: Partial<Wire<PublicIpUsagePeriod>> = {},
): Wire<PublicIpUsagePeriod> => ({
  address: '203.0.113.10',
  region: 'Frankfurt',
  vmId: 12,
  networkId: null,
  from: '2026-10-01T00:00:00.000Z',
  to: '2026-10-11T00:00:00.000Z',
  minutes: 14_400,
  hours: 240,
  ...overrides,
});

/** One snapshot held during the month, as the API sends it. */
export const aSnapshotPeriod = (
  overrides: Partial<Wire<SnapshotUsagePeriod>> = {},
): Wire<SnapshotUsagePeriod> => ({
  snapshotId: 7,
  snapshotName: 'before-upgrade',
  vmId: 12,
  vmName: 'web-01',
  vmDeleted: false,
  region: 'Frankfurt',
  sizeBytes: 10 * 2 ** 30,
  sizeGb: 10,
  from: '2026-10-01T00:00:00.000Z',
  to: '2026-10-11T00:00:00.000Z',
  minutes: 14_400,
  hours: 240,
  gbHours: 2400,
  ...overrides,
});

type WireCompanyUsage = Omit<CompanyUsage, 'vms' | 'publicIps' | 'snapshots'> & {
  vms: Wire<VmUsagePeriod>[];
  publicIps: Wire<PublicIpUsagePeriod>[];
  snapshots: Wire<SnapshotUsagePeriod>[];
};

/** A customer's month: nothing used unless told. */
export const aCompanyUsage = (
  companyId = 42,
  overrides: Partial<WireCompanyUsage> = {},
): WireCompanyUsage => ({
  companyId,
  externalId: `customer:${companyId}`,
  name: 'Acme Corporation',
  vms: [],
  publicIps: [],
  snapshots: [],
  totals: {
    vmExistedHours: 0,
    vmRanHours: 0,
    vcpuRanHours: 0,
    ramGbRanHours: 0,
    publicIpHours: 0,
    snapshotGbHours: 0,
  },
  ...overrides,
});

const monthBounds = (month: string) => {
  const from = new Date(`${month}-01T00:00:00Z`);
  const to = new Date(from);
  to.setUTCMonth(to.getUTCMonth() + 1);
  return { from: from.toISOString(), to: to.toISOString() };
};

/**
 * Serves reseller/usage (JSON) for one customer: each month's usage from `months` (nothing used
 * in any other), 404 for another customer; records each query string.
 */
export function serveUsage(months: Record<string, WireCompanyUsage> = {}, companyId = 42) {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(api('reseller/usage'), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      if (Number(query.companyId) !== companyId) return fail(404, 'Customer not found');
      const month = query.month!;
      return ok({
        month,
        ...monthBounds(month),
        companies: [months[month] ?? aCompanyUsage(companyId)],
      });
    }),
  );
  return { queries, last: () => queries.at(-1) };
}

/**
 * Serves reseller/companies/activity/{id} for one customer from `events` (newest first), paged by
 * the query; records each query string.
 */
export function serveCustomerActivity(events: ActivityEvent[] = [], companyId = 42) {
  const queries: Record<string, string>[] = [];
  server.use(
    http.get(api('reseller/companies/activity/:id'), ({ request, params }) => {
      if (Number(params.id) !== companyId) return fail(404, 'Customer not found');
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      const rows = Number(query.rowsPerPage ?? 10);
      const page = Number(query.page ?? 1);
      return ok({
        data: events.slice((page - 1) * rows, page * rows),
        totalPages: Math.max(1, Math.ceil(events.length / rows)),
      });
    }),
  );
  return { queries, last: () => queries.at(-1) };
}
