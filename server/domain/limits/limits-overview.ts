import { eq } from 'drizzle-orm';
import {
  limitResources,
  limitSources,
  type CompanyLimits as LimitsOverview,
  type LimitEntry,
  type LimitResource,
  type LimitSource,
} from '../../../src/api/contract/limits';
import type { CompanyLimits as Quotas } from '../../config';
import { regions } from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema';
import { regionIsOffered } from '../vms/vm-lookups';
import { readHoldings, type Holdings } from './holdings';
import { companyLimitsOf, resellerLimitsOf, sortLimits } from './limit-records';
import { bounding, operatorQuota } from './room';

type Entry = LimitsOverview['limits'][number];

/**
 * Every limit that applies to the company (`GET /limits`): the operator's quotas in each region it
 * can create in, its own limits and its reseller's, each with what the company holds against it
 * and what it may still add there. `left` is the least room under every limit on the resource in
 * the entry's region (the region's and all regions' of the company and of its reseller, whose
 * room is what all its customers together leave, and the operator's quota); for an all-regions
 * entry, under the all-regions limits. Never below 0: a company above a lowered limit has none.
 */
export async function listLimits(
  db: Db,
  companyId: number,
  quotas: Quotas,
): Promise<LimitsOverview> {
  const [company] = await db
    .select({ resellerId: companies.resellerId, isResellerStaff: companies.isResellerStaff })
    .from(companies)
    .where(eq(companies.id, companyId));
  // The reseller's staff company is none of its customers: the reseller's limits do not bind it.
  const shareOf = company && !company.isResellerStaff ? company.resellerId : undefined;
  const [offered, own, shared] = await Promise.all([
    db.select({ id: regions.id }).from(regions).where(regionIsOffered(db)),
    companyLimitsOf(db, companyId),
    shareOf === undefined ? [] : resellerLimitsOf(db, shareOf),
  ]);
  const held = await readHoldings(db, { companyId }, limitResources);
  const sharedHeld: Holdings | undefined =
    shareOf === undefined || shared.length === 0
      ? undefined
      : await readHoldings(
          db,
          { resellerId: shareOf },
          shared.map((limit) => limit.resource),
        );

  const room = (holdings: Holdings, limit: LimitEntry) =>
    limit.max - holdings.in(limit.resource, limit.regionId);
  const left = (resource: LimitResource, regionId: number | null): number => {
    const applying = (limits: readonly LimitEntry[]) =>
      regionId === null
        ? limits.filter((limit) => limit.resource === resource && limit.regionId === null)
        : bounding(limits, resource, regionId);
    const rooms = applying(own).map((limit) => room(held, limit));
    if (sharedHeld) rooms.push(...applying(shared).map((limit) => room(sharedHeld, limit)));
    const quota = operatorQuota(quotas, resource);
    if (quota && regionId !== null) rooms.push(quota.max - held.in(resource, regionId));
    return Math.max(0, Math.min(...rooms));
  };
  const entry = (limit: LimitEntry, source: LimitSource): Entry => ({
    ...limit,
    used: held.in(limit.resource, limit.regionId),
    left: left(limit.resource, limit.regionId),
    source,
  });

  const quotaEntries = offered.flatMap(({ id: regionId }) =>
    limitResources.flatMap((resource) => {
      const quota = operatorQuota(quotas, resource);
      return quota ? [entry({ resource, regionId, max: quota.max }, 'quota')] : [];
    }),
  );
  const entries = [
    ...quotaEntries,
    ...own.map((limit) => entry(limit, 'company')),
    ...shared.map((limit) => entry(limit, 'reseller')),
  ];
  // sortLimits is stable: within a resource and region, the sources keep their order.
  const bySource = (a: Entry, b: Entry) =>
    limitSources.indexOf(a.source) - limitSources.indexOf(b.source);
  return { limits: sortLimits(entries.sort(bySource)) };
}
