import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { ListUsersQuery, User, UserRow } from '../../src/api/contract/users';
import type { Db } from '../db/client';
import { companies, resellers, users } from '../db/schema';

export const DEFAULT_BRAND = 'Launchpad';

/** What login and the e-mailed links need to know about an address. */
export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      activatedAt: users.activatedAt,
      resellerName: resellers.resellerName,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .where(eq(users.email, email));
  return row;
}

export async function findPasswordHash(db: Db, userId: number) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row?.passwordHash ?? null;
}

/** The signed-in user with the branding of their company and reseller (contract `user`). */
export async function findUserProfile(db: Db, userId: number): Promise<User | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      createdAt: users.createdAt,
      isAdmin: users.isAdmin,
      isReseller: users.isReseller,
      forcePasswordReset: users.forcePasswordReset,
      resellerEmail: resellers.email,
      companyName: companies.name,
      logoUrl: sql<string | null>`coalesce(${companies.logoUrl}, ${resellers.logoUrl})`,
      resellerName: resellers.resellerName,
      tabLogoUrl: resellers.tabLogoUrl,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .where(eq(users.id, userId));
  return row && { ...row, resetKey: null };
}

/** `%` and `_` typed by the user are literal characters, not wildcards. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const sortKeys = (column: ListUsersQuery['sortColumn']): SQL[] => {
  switch (column) {
    case 'name':
      return [sql`lower(${users.firstName})`, sql`lower(${users.lastName})`];
    case 'email':
      return [sql`${users.email}`];
    case 'createdAt':
      return [sql`${users.createdAt}`];
  }
};

/** One page of the company's users; filtering, sorting and paging happen in SQL. */
export async function listCompanyUsers(
  db: Db,
  companyId: number,
  query: ListUsersQuery,
): Promise<{ data: UserRow[]; totalPages: number }> {
  const pattern = `%${escapeLike(query.search)}%`;
  const where = and(
    eq(users.companyId, companyId),
    query.search
      ? or(
          ilike(users.firstName, pattern),
          ilike(users.lastName, pattern),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ilike(users.email, pattern),
        )
      : undefined,
  );
  const direction = query.sortDescending ? desc : asc;
  // The id breaks ties so that paging never shows a row twice or skips one.
  const orderBy = [...sortKeys(query.sortColumn), sql`${users.id}`].map((key) => direction(key));

  const [total] = await db.select({ n: count() }).from(users).where(where);
  const data = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      createdAt: users.createdAt,
      isAdmin: users.isAdmin,
    })
    .from(users)
    .where(where)
    .orderBy(...orderBy)
    .limit(query.rowsPerPage)
    .offset((query.page - 1) * query.rowsPerPage);
  return { data, totalPages: Math.max(1, Math.ceil((total?.n ?? 0) / query.rowsPerPage)) };
}
