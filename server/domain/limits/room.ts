import { eq } from 'drizzle-orm';
import {
  limitMessages,
  limitResources,
  type LimitEntry,
  type LimitResource,
} from '../../../src/api/contract/limits';
import { networkMessages } from '../../../src/api/contract/networks';
import { vmMessages } from '../../../src/api/contract/vms';
import type { CompanyLimits } from '../../config';
import type { Tx } from '../../db/client';
import { companies, resellers } from '../../db/schema';
import { conflict } from '../../http-error';
import { readHoldings, type Holdings } from './holdings';
import { companyLimitsOf, resellerLimitsOf } from './limit-records';

/** What a change adds, by resource. */
export type Adding = Partial<Record<LimitResource, number>>;

/** The operator's quota of a resource in each region (`QUOTA_*_PER_REGION`); none on snapshots. */
export function operatorQuota(
  quotas: CompanyLimits,
  resource: LimitResource,
): { max: number; message: string } | undefined {
  switch (resource) {
    case 'vms':
      return { max: quotas.vmsPerRegion, message: vmMessages.vmQuota(quotas.vmsPerRegion) };
    case 'vcpus':
      return { max: quotas.vcpusPerRegion, message: vmMessages.vcpuQuota(quotas.vcpusPerRegion) };
    case 'ramGb':
      return { max: quotas.ramGbPerRegion, message: vmMessages.ramQuota(quotas.ramGbPerRegion) };
    case 'networks':
      return {
        max: quotas.networksPerRegion,
        message: networkMessages.networkQuota(quotas.networksPerRegion),
      };
    case 'publicIps':
      return {
        max: quotas.publicIpsPerRegion,
        message: networkMessages.publicIpQuota(quotas.publicIpsPerRegion),
      };
    case 'snapshots':
      return undefined;
  }
}

/** The limits of a set that bound a resource in a region: the region's, then all regions'. */
export const bounding = (
  limits: readonly LimitEntry[],
  resource: LimitResource,
  regionId: number,
) =>
  limits
    .filter(
      (limit) =>
        limit.resource === resource && (limit.regionId === null || limit.regionId === regionId),
    )
    .sort((a, b) => Number(a.regionId === null) - Number(b.regionId === null));

/**
 * The company's row, locked, and its reseller's when the reseller has limits: they serialise
 * every change that adds to the company's holdings, and the reseller's every change that adds to
 * its customers' together, so that two requests at once cannot both take the last place. Always
 * the company first, the reseller next (and a region's pool after both, `reservePublicIp`), and
 * the reseller whatever resource is asked for, so that no later check in the same transaction
 * takes it after a region: no two transactions wait for each other in a circle.
 *
 * A reseller's staff company is not one of its customers: the reseller's limits do not bind it.
 */
async function lockOwners(tx: Tx, companyId: number) {
  const [company] = await tx
    .select({ resellerId: companies.resellerId, isResellerStaff: companies.isResellerStaff })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('no key update');
  if (!company || company.isResellerStaff) return { resellerId: undefined, resellerLimits: [] };
  const resellerLimits = await resellerLimitsOf(tx, company.resellerId);
  if (resellerLimits.length > 0) {
    await tx
      .select({ id: resellers.id })
      .from(resellers)
      .where(eq(resellers.id, company.resellerId))
      .for('no key update');
  }
  return { resellerId: company.resellerId, resellerLimits };
}

/**
 * 409 naming the first limit the change would cross in the region, resource by resource: the
 * operator's quota (its own message), the company's limits in the region and in all regions,
 * then its reseller's, against what all the reseller's customers hold. Only what the change adds
 * is checked, so a company above a lowered limit can still do what does not grow it. Called in
 * the transaction that writes the change, before it is written.
 */
export async function requireRoom(
  tx: Tx,
  owner: { companyId: number; regionId: number; quotas: CompanyLimits },
  adding: Adding,
): Promise<void> {
  const { companyId, regionId } = owner;
  const { resellerId, resellerLimits } = await lockOwners(tx, companyId);
  const growing = limitResources.filter((resource) => (adding[resource] ?? 0) > 0);
  if (growing.length === 0) return;

  const companyLimits = await companyLimitsOf(tx, companyId);
  const held = await readHoldings(tx, { companyId }, growing);
  let resellerHeld: Holdings | undefined;
  const crosses = (
    holdings: Holdings,
    resource: LimitResource,
    limit: { regionId: number | null; max: number },
  ) => holdings.in(resource, limit.regionId) + adding[resource]! > limit.max;

  for (const resource of growing) {
    const quota = operatorQuota(owner.quotas, resource);
    if (quota && crosses(held, resource, { regionId, max: quota.max })) {
      throw conflict(quota.message);
    }
    for (const limit of bounding(companyLimits, resource, regionId)) {
      if (crosses(held, resource, limit)) {
        throw conflict(limitMessages.companyLimit(resource, limit.max, limit.regionId !== null));
      }
    }
    const shared = bounding(resellerLimits, resource, regionId);
    if (shared.length === 0 || resellerId === undefined) continue;
    resellerHeld ??= await readHoldings(tx, { resellerId }, growing);
    for (const limit of shared) {
      if (crosses(resellerHeld, resource, limit)) {
        throw conflict(limitMessages.resellerLimit(resource, limit.max, limit.regionId !== null));
      }
    }
  }
}
