import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { resellerMessages, type CustomerDetails } from '../../../src/api/contract/reseller';
import type { Db } from '../../db/client';
import { companies, userDisplayName, users } from '../../db/schema';
import { notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';
import { customerColumns, withFigures } from './customer-figures';
import { customerLimitUse } from './customer-limits';
import { customersOf, resellerScope } from './reseller-scope';

/**
 * One customer of the caller's reseller: its row's figures, its Admins and its limits. Another reseller's
 * company, the reseller's own staff company and an unknown id all answer the same 404.
 */
export async function findCustomerDetails(
  db: Db,
  caller: Caller,
  companyId: number,
  now: Date,
): Promise<CustomerDetails> {
  const scope = await resellerScope(db, caller);
  const [row] = await db
    .select(customerColumns(db))
    .from(companies)
    .where(and(eq(companies.id, companyId), customersOf(scope)));
  if (!row) throw notFound(resellerMessages.customerNotFound);
  const [[customer], adminList, limits] = await Promise.all([
    withFigures(db, [row], now),
    db
      .select({
        id: users.id,
        name: sql<string>`${userDisplayName()}`,
        email: users.email,
        activated: sql<boolean>`${isNotNull(users.activatedAt)}`,
      })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.isAdmin, true)))
      .orderBy(asc(users.nameKey), asc(users.id)),
    customerLimitUse(db, companyId),
  ]);
  return { ...customer!, adminList, limits };
}
