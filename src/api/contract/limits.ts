import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';

/**
 * What a company may hold: limits set by its reseller (per region or in all regions together),
 * within the reseller's own limits (set by the operator's import, shared by all its customers),
 * and the operator's per-region quotas (`QUOTA_*_PER_REGION`), which apply to every company.
 */
export const limitResources = [
  'vms',
  'vcpus',
  'ramGb',
  'publicIps',
  'networks',
  'snapshots',
] as const;
export type LimitResource = (typeof limitResources)[number];

export const LIMIT_MAX = 1_000_000;
export const LIMITS_PER_COMPANY_MAX = 500;
/** The reseller import's `limits` of one reseller. */
export const LIMITS_PER_RESELLER_MAX = 500;

/** The noun of a resource in messages: "10 VMs", "52 GB of RAM". */
export const limitNouns: Record<LimitResource, string> = {
  vms: 'VMs',
  vcpus: 'vCPUs',
  ramGb: 'GB of RAM',
  publicIps: 'public IP addresses',
  networks: 'networks',
  snapshots: 'snapshots',
};

const where = (regionScoped: boolean) => (regionScoped ? ' in this region' : '');

export const limitMessages = {
  /** 409: the company's own limit, set by its reseller. */
  companyLimit: (resource: LimitResource, max: number, regionScoped: boolean) =>
    `The company has reached its limit of ${max} ${limitNouns[resource]}${where(regionScoped)}`,
  /** 409: the reseller's limit, which all its customers share. */
  resellerLimit: (resource: LimitResource, max: number, regionScoped: boolean) =>
    `The reseller has reached its limit of ${max} ${limitNouns[resource]}${where(regionScoped)}`,
  /** 400 on a company limit above what the reseller itself may hold. */
  aboveResellerLimit: (resource: LimitResource, max: number, regionScoped: boolean) =>
    `Must not exceed the reseller's own limit of ${max} ${limitNouns[resource]}${where(regionScoped)}`,
  duplicate: 'Each resource can have one limit per region',
  regionNotFound: 'Region not found',
  maxRange: `Must be a whole number from 0 to ${LIMIT_MAX}`,
  saved: 'Limits saved',
} as const;

/** One limit: at most `max` of `resource` in the region, or in all regions together (null). */
export const limitEntry = z.object({
  resource: z.enum(limitResources),
  regionId: z.nullable(idSchema),
  max: z
    .int({ error: limitMessages.maxRange })
    .check(z.gte(0, limitMessages.maxRange), z.lte(LIMIT_MAX, limitMessages.maxRange)),
});
export type LimitEntry = z.infer<typeof limitEntry>;

/** `PUT /reseller/companies/limits/{id}`: the company's whole set of limits, replacing the last. */
export const putCompanyLimitsBody = z.object({
  limits: z.array(limitEntry).check(z.maxLength(LIMITS_PER_COMPANY_MAX)),
});
export type PutCompanyLimitsBody = z.input<typeof putCompanyLimitsBody>;
export const putCompanyLimitsResponse = emptyEnvelope;

/** A limit with what is held against it now. */
export const limitUse = z.extend(limitEntry, { used: z.int() });
export type LimitUse = z.infer<typeof limitUse>;

/**
 * Whose limit an entry of `GET /limits` is: the operator's per-region quota (`QUOTA_*_PER_REGION`,
 * for every company), the company's own (set by its reseller), or its reseller's (shared by all
 * the reseller's customers; `used` is still the company's own share).
 */
export const limitSources = ['quota', 'company', 'reseller'] as const;
export type LimitSource = (typeof limitSources)[number];

/**
 * `GET /limits`: what the caller's company may still create. `left` is the room under every
 * limit that applies to the entry's resource and region (the company's own, its reseller's
 * shared one and the operator's quota), so it may be less than `max - used`.
 */
export const companyLimitsResponse = envelope(
  z.object({
    limits: z.array(z.extend(limitUse, { left: z.int(), source: z.enum(limitSources) })),
  }),
);
export type CompanyLimits = z.infer<typeof companyLimitsResponse>['data'];
