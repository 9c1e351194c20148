import { and, eq } from 'drizzle-orm';
import type { ActivityEvent, ListActivityQuery } from '../../../src/api/contract/activity';
import { resellerMessages } from '../../../src/api/contract/reseller';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema';
import { notFound } from '../../http-error';
import { listActivity } from '../events/activity-list';
import type { Caller } from '../tenancy/access';
import { customersOf, resellerScope } from './reseller-scope';

/**
 * A customer's activity for its reseller's staff: the company's whole log, as its Admins read it
 * at `GET /activity/list` (the same query, filters and 404s on a subject it does not hold).
 * Another reseller's company, the staff company itself and an unknown id answer 404 alike.
 */
export async function listCustomerActivity(
  db: Db,
  caller: Caller,
  companyId: number,
  query: ListActivityQuery,
): Promise<{ data: ActivityEvent[]; totalPages: number }> {
  const scope = await resellerScope(db, caller);
  const [company] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.id, companyId), customersOf(scope)));
  if (!company) throw notFound(resellerMessages.customerNotFound);
  // The company's Admin's view: every event of it (visibility.ts), its teams and VMs all visible.
  return listActivity(db, { userId: caller.userId, companyId: company.id, isAdmin: true }, query);
}
