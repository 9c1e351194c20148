import { and, eq } from 'drizzle-orm';
import {
  limitMessages,
  type LimitEntry,
  type LimitUse,
  type putCompanyLimitsBody,
} from '../../../src/api/contract/limits';
import { resellerMessages } from '../../../src/api/contract/reseller';
import type { FieldError } from '../../../src/api/contract/envelope';
import type { z } from '../../../src/api/contract/zod';
import type { Db, Tx } from '../../db/client';
import { companies } from '../../db/schema';
import { invalidFields, notFound } from '../../http-error';
import { readHoldings } from '../limits/holdings';
import {
  companyLimitsOf,
  entryErrors,
  knownRegions,
  replaceCompanyLimits,
  resellerLimitsOf,
  sameLimits,
  sortLimits,
} from '../limits/limit-records';
import { userActor } from '../events/actor';
import type { Caller } from '../tenancy/access';
import { recordLimitsChange } from './limits-change';
import { customersOf, resellerScope } from './reseller-scope';

type CompanyLimitsInput = z.output<typeof putCompanyLimitsBody>;

/**
 * The tightest of the reseller's own limits a company limit would exceed: for a region, the
 * reseller's limit there and in all regions; for all regions, the reseller's all-regions one.
 */
function exceeded(resellerLimits: readonly LimitEntry[], limit: LimitEntry) {
  const above = resellerLimits.filter(
    (own) =>
      own.resource === limit.resource &&
      (own.regionId === null || own.regionId === limit.regionId) &&
      limit.max > own.max,
  );
  return above.sort((a, b) => a.max - b.max)[0];
}

/** The field number of `limits.N…`, to keep the errors in the order of the entries. */
const entryIndex = (error: FieldError) => Number(error.field.split('.')[1]);

/**
 * Replaces a customer's whole set of limits, each within the reseller's own. Another reseller's
 * company, the reseller's staff company and an unknown id answer 404 as the other paths do; a
 * duplicate, an unknown region and a limit above the reseller's answer 400 naming each entry.
 * The company's row is locked so that two sets sent at once are written one after the other. A
 * set that changes anything is `company.limits` in the customer's log, by the caller.
 */
export async function saveCustomerLimits(
  db: Db,
  caller: Caller,
  companyId: number,
  input: CompanyLimitsInput,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const scope = await resellerScope(tx, caller);
    const [company] = await tx
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(and(eq(companies.id, companyId), customersOf(scope)))
      .for('no key update');
    if (!company) throw notFound(resellerMessages.customerNotFound);

    const { limits } = input;
    const regionIds = await knownRegions(
      tx,
      limits.flatMap((limit) => (limit.regionId === null ? [] : [limit.regionId])),
    );
    const resellerLimits = await resellerLimitsOf(tx, scope.resellerId);
    const errors = entryErrors(limits, regionIds);
    limits.forEach((limit, n) => {
      const own = exceeded(resellerLimits, limit);
      if (!own) return;
      errors.push({
        field: `limits.${n}.max`,
        message: limitMessages.aboveResellerLimit(limit.resource, own.max, own.regionId !== null),
      });
    });
    if (errors.length > 0) {
      throw invalidFields(errors.sort((a, b) => entryIndex(a) - entryIndex(b)));
    }
    const before = await companyLimitsOf(tx, companyId);
    await replaceCompanyLimits(tx, companyId, limits);
    const after = sortLimits(limits);
    if (!sameLimits(before, after)) {
      await recordLimitsChange(
        tx,
        company,
        { before, after },
        await userActor(tx, caller.userId),
        now,
      );
    }
  });
}

/** The company's limits with what it holds against each: in the region, or in all of them. */
export async function customerLimitUse(db: Db | Tx, companyId: number): Promise<LimitUse[]> {
  const limits = await companyLimitsOf(db, companyId);
  if (limits.length === 0) return [];
  const held = await readHoldings(
    db,
    { companyId },
    limits.map((limit) => limit.resource),
  );
  return limits.map((limit) => ({ ...limit, used: held.in(limit.resource, limit.regionId) }));
}
