import { and, eq, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { companies } from '../../db/schema';
import { notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';

/**
 * Whose customers a reseller's staff user manages. The authentication hook already answers 404 to
 * a caller who is not `isReseller` (`config.resellerOnly`); this reads which reseller, from the
 * caller's company, which must be the reseller's staff company.
 */

export interface ResellerScope {
  resellerId: number;
  /** The reseller's own company: never one of its customers. */
  staffCompanyId: number;
}

export async function resellerScope(db: Db | Tx, caller: Caller): Promise<ResellerScope> {
  const [staff] = await db
    .select({ resellerId: companies.resellerId })
    .from(companies)
    .where(and(eq(companies.id, caller.companyId), eq(companies.isResellerStaff, true)));
  // A flag set on a user of an ordinary company: as for anyone else, the path is not there.
  if (!staff) throw notFound();
  return { resellerId: staff.resellerId, staffCompanyId: caller.companyId };
}

/** The reseller's customers: its companies, less its staff company. */
export const customersOf = (scope: ResellerScope): SQL =>
  and(eq(companies.resellerId, scope.resellerId), eq(companies.isResellerStaff, false))!;
