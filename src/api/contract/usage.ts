import { z } from './zod';
import { envelope, idSchema } from './envelope';

/**
 * Usage for billing (`GET /reseller/usage?month=YYYY-MM&format=json|csv[&companyId=]`): for each
 * of the reseller's customers, how long each VM existed and ran in each of its sizes, and how long
 * each public address was held, in the calendar month (UTC), counted from the product's own
 * history (docs/billing.md):
 * - a VM exists from its creation to its deletion, in one size period per size (a resize that
 *   took effect ends one and starts the next);
 * - it runs while its status is Running (the `vm.status` events of `GET /activity/list`);
 * - a public address is held from its allocation to its release;
 * - a snapshot is held, at its size, from when it became available to when its delete (its own or
 *   its VM's) finished; one whose take failed is never held.
 * A month not over yet counts up to now. Periods are clipped to the month; minutes are whole
 * (rounded from the exact times), hours are minutes / 60 with 2 decimals; a GB is 2^30 bytes.
 */

export const usageMessages = {
  monthFormat: 'Month must be a month such as 2026-11 (YYYY-MM)',
  monthInFuture: 'Month must not be after the current month',
  companyNotFound: 'Customer not found',
} as const;

export const usageFormats = ['json', 'csv'] as const;

export const usageQuery = z.object({
  month: z
    .string({ error: usageMessages.monthFormat })
    .check(
      z.trim(),
      z.maxLength(7, { error: usageMessages.monthFormat, abort: true }),
      z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, usageMessages.monthFormat),
    ),
  format: z._default(z.enum(usageFormats), 'json'),
  /** One customer only (its page in the console); 404 for a company not the reseller's. */
  companyId: z.optional(idSchema),
});
export type UsageQuery = z.input<typeof usageQuery>;

/** One VM in one size during the month. */
export const vmUsagePeriod = z.object({
  vmId: z.int(),
  vmName: z.string(),
  /** Whether the VM has been deleted since (it is then still billed for its time). */
  vmDeleted: z.boolean(),
  region: z.string(),
  configurationId: z.int(),
  /** The configuration's name, e.g. "Standard 2 vCPU / 4 GB". */
  size: z.string(),
  vcpus: z.int(),
  ramGb: z.int(),
  diskGb: z.int(),
  /** The size period within the month (or up to now). */
  from: z.date(),
  to: z.date(),
  existedMinutes: z.int(),
  ranMinutes: z.int(),
  existedHours: z.number(),
  ranHours: z.number(),
});
export type VmUsagePeriod = z.infer<typeof vmUsagePeriod>;

/** One public address held during the month. */
export const publicIpUsagePeriod = z.object({
  address: z.string(),
  region: z.string(),
  /** What it served: a VM's interface, or a network's outbound address. */
  vmId: z.nullable(z.int()),
  networkId: z.nullable(z.int()),
  from: z.date(),
  to: z.date(),
  minutes: z.int(),
  hours: z.number(),
});
export type PublicIpUsagePeriod = z.infer<typeof publicIpUsagePeriod>;

/** One snapshot held during the month, at its size. */
export const snapshotUsagePeriod = z.object({
  snapshotId: z.int(),
  snapshotName: z.string(),
  vmId: z.int(),
  vmName: z.string(),
  /** Whether its VM has been deleted since (its snapshots went with it). */
  vmDeleted: z.boolean(),
  region: z.string(),
  /** What it holds on its engine, in bytes, and in GB (2^30 bytes) to 2 decimals. */
  sizeBytes: z.int(),
  sizeGb: z.number(),
  /** The period it was held within the month (or up to now). */
  from: z.date(),
  to: z.date(),
  minutes: z.int(),
  hours: z.number(),
  /** minutes × sizeBytes / 2^30 / 60, to 2 decimals. */
  gbHours: z.number(),
});
export type SnapshotUsagePeriod = z.infer<typeof snapshotUsagePeriod>;

export const companyUsage = z.object({
  companyId: z.int(),
  /** The id the operator's import gave it (`customer:<uuid>` when created in the console). */
  externalId: z.string(),
  name: z.string(),
  vms: z.array(vmUsagePeriod),
  publicIps: z.array(publicIpUsagePeriod),
  snapshots: z.array(snapshotUsagePeriod),
  totals: z.object({
    vmExistedHours: z.number(),
    vmRanHours: z.number(),
    /** Ran hours weighted by size: what per-vCPU and per-GB pricing multiplies. */
    vcpuRanHours: z.number(),
    ramGbRanHours: z.number(),
    publicIpHours: z.number(),
    /** Σ minutes × sizeBytes / 2^30 / 60 of its snapshots, rounded once. */
    snapshotGbHours: z.number(),
  }),
});
export type CompanyUsage = z.infer<typeof companyUsage>;

export const usageResponse = envelope(
  z.object({
    month: z.string(),
    /** The month's start, and its end or now if it is not over. */
    from: z.date(),
    to: z.date(),
    /** The reseller's customers, in name order; those with nothing to bill included (all zero). */
    companies: z.array(companyUsage),
  }),
);
export type Usage = z.infer<typeof usageResponse>['data'];

/**
 * The CSV's columns, in order (RFC 4180, a header row first). `kind` is `vm` (one row per
 * company, VM and size period), `public_ip` (one per address period), `snapshot` (one per
 * snapshot period) or `total` (one per company, after its rows); columns that do not apply to a
 * kind are empty. Moments are ISO 8601 UTC. Columns added later come last, so that a reader's
 * positions of the earlier ones hold.
 */
export const usageCsvColumns = [
  'kind',
  'company_id',
  'company_external_id',
  'company_name',
  'vm_id',
  'vm_name',
  'region',
  'size',
  'vcpus',
  'ram_gb',
  'disk_gb',
  'address',
  'from',
  'to',
  'existed_hours',
  'ran_hours',
  'vcpu_ran_hours',
  'ram_gb_ran_hours',
  'public_ip_hours',
  'snapshot_id',
  'snapshot_name',
  'size_gb',
  'snapshot_gb_hours',
] as const;
