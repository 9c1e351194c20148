import { and, asc, count, desc, ilike, sql, type SQL } from 'drizzle-orm';
import type { CustomerPage, listCustomersQuery } from '../../../src/api/contract/reseller';
import type { z } from '../../../src/api/contract/zod';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema';
import { boundedCount, containsPattern, oneOf, pageWithTotal } from '../lists/list-paging';
import type { Caller } from '../tenancy/access';
import { customerColumns, withFigures } from './customer-figures';
import { customersOf, resellerScope } from './reseller-scope';

type ListCustomersQuery = z.output<typeof listCustomersQuery>;

const sortKeys = (db: Db, column: ListCustomersQuery['sortColumn']): SQL[] => {
  const kept = customerColumns(db);
  switch (column) {
    case 'name':
      // In natural order, by the key the database keeps of it.
      return [sql`${companies.nameKey}`];
    case 'users':
      return [kept.users];
    case 'vms':
      return [kept.vmsTotal];
    case 'createdAt':
      return [sql`${companies.createdAt}`];
  }
};

/** One page of the caller's reseller's customers, searched by name, with their figures. */
export async function listCustomers(
  db: Db,
  caller: Caller,
  query: ListCustomersQuery,
  now: Date,
): Promise<CustomerPage> {
  const scope = await resellerScope(db, caller);
  const where = and(
    customersOf(scope),
    query.search ? ilike(companies.name, containsPattern(query.search)) : undefined,
  );
  const direction = query.sortDescending ? desc : asc;
  // The id breaks ties so that paging never shows a row twice or skips one.
  const orderBy = [...sortKeys(db, query.sortColumn), sql`${companies.id}`].map((key) =>
    direction(key),
  );

  const offset = (query.page - 1) * query.rowsPerPage;
  // A function: query builders change in place, and the count and the page each need their own.
  const matching = () => db.select({ id: companies.id }).from(companies).where(where);
  const total = query.search
    ? boundedCount(matching(), offset)
    : sql<number>`(${db.select({ n: count() }).from(companies).where(where)})`.mapWith(Number);
  const ids = matching()
    .orderBy(...orderBy)
    .limit(query.rowsPerPage)
    .offset(offset);
  const rows = await db
    .select({ total, ...customerColumns(db) })
    .from(companies)
    .where(oneOf(companies.id, ids))
    .orderBy(...orderBy);
  const page = await pageWithTotal(db, rows, total, query.rowsPerPage);
  return { data: await withFigures(db, page.data, now), totalPages: page.totalPages };
}
