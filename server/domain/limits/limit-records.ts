import { eq, inArray } from 'drizzle-orm';
import { limitMessages, limitResources, type LimitEntry } from '../../../src/api/contract/limits';
import type { FieldError } from '../../../src/api/contract/envelope';
import { regions } from '../../db/catalog-schema';
import type { Db, Tx } from '../../db/client';
import { companyLimits, resellerLimits } from '../../db/limit-schema';

/**
 * The stored sets of limits: a company's (its reseller's `PUT`) and a reseller's (the operator's
 * import). Each set is written whole, replacing the last.
 */

const order = (a: LimitEntry, b: LimitEntry) =>
  limitResources.indexOf(a.resource) - limitResources.indexOf(b.resource) ||
  // All regions first, then by region.
  (a.regionId ?? 0) - (b.regionId ?? 0);

/** In the contract's order of resources, all regions before each region. */
export const sortLimits = <T extends LimitEntry>(limits: T[]): T[] => [...limits].sort(order);

const entryColumns = (table: typeof companyLimits | typeof resellerLimits) => ({
  resource: table.resource,
  regionId: table.regionId,
  max: table.max,
});

export async function companyLimitsOf(db: Db | Tx, companyId: number): Promise<LimitEntry[]> {
  const rows = await db
    .select(entryColumns(companyLimits))
    .from(companyLimits)
    .where(eq(companyLimits.companyId, companyId));
  return sortLimits(rows);
}

export async function resellerLimitsOf(db: Db | Tx, resellerId: number): Promise<LimitEntry[]> {
  const rows = await db
    .select(entryColumns(resellerLimits))
    .from(resellerLimits)
    .where(eq(resellerLimits.resellerId, resellerId));
  return sortLimits(rows);
}

export async function replaceCompanyLimits(
  tx: Tx,
  companyId: number,
  limits: readonly LimitEntry[],
): Promise<void> {
  await tx.delete(companyLimits).where(eq(companyLimits.companyId, companyId));
  if (limits.length === 0) return;
  await tx.insert(companyLimits).values(limits.map((limit) => ({ companyId, ...limit })));
}

export async function replaceResellerLimits(
  tx: Tx,
  resellerId: number,
  limits: readonly LimitEntry[],
): Promise<void> {
  await tx.delete(resellerLimits).where(eq(resellerLimits.resellerId, resellerId));
  if (limits.length === 0) return;
  await tx.insert(resellerLimits).values(limits.map((limit) => ({ resellerId, ...limit })));
}

/** Whether two sets hold the same limits, in whatever order. */
export const sameLimits = (a: readonly LimitEntry[], b: readonly LimitEntry[]) =>
  JSON.stringify(
    sortLimits([...a]).map(({ resource, regionId, max }) => [resource, regionId, max]),
  ) ===
  JSON.stringify(
    sortLimits([...b]).map(({ resource, regionId, max }) => [resource, regionId, max]),
  );

/** Of these region ids, those that exist. */
export async function knownRegions(db: Db | Tx, ids: Iterable<number>): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Set();
  const rows = await db.select({ id: regions.id }).from(regions).where(inArray(regions.id, wanted));
  return new Set(rows.map((row) => row.id));
}

/**
 * What is wrong with a set of limits before it is compared with anything: the later of two
 * entries for the same resource and region (`limits.N`), and a region that does not exist
 * (`limits.N.regionId`).
 */
export function entryErrors(limits: readonly LimitEntry[], regionIds: Set<number>): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  limits.forEach((limit, n) => {
    const key = `${limit.resource}/${limit.regionId ?? 'all'}`;
    if (seen.has(key)) errors.push({ field: `limits.${n}`, message: limitMessages.duplicate });
    seen.add(key);
    if (limit.regionId !== null && !regionIds.has(limit.regionId)) {
      errors.push({ field: `limits.${n}.regionId`, message: limitMessages.regionNotFound });
    }
  });
  return errors;
}
