import { and, asc, desc, eq, ilike, inArray, notExists, or, sql, type SQL } from 'drizzle-orm';
import type {
  ListUsersQuery,
  UserDetails,
  UserRow,
  UserTeamPage,
  UserTeamsQuery,
} from '../../../src/api/contract/users';
import type { User } from '../../../src/api/contract/auth';
import type { Db } from '../../db/client';
import { companies, resellerDomains, resellers, teamMembers, teams, users } from '../../db/schema';
import {
  boundedCount,
  containsPattern,
  keptCount,
  oneOf,
  pageWithTotal,
} from '../lists/list-paging';

export const DEFAULT_BRAND = 'Launchpad';

/** The reseller's domains by host name, in the query that joins `resellers`. */
export const resellerDomainsColumn = sql<
  string[]
>`array(select ${resellerDomains.host} from ${resellerDomains} where ${resellerDomains.resellerId} = ${resellers.id} order by ${resellerDomains.host})`;

/** What login and the e-mailed links need to know about an address. */
export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      activatedAt: users.activatedAt,
      resellerName: resellers.resellerName,
      /** Set while the company is suspended by its reseller. */
      suspendedAt: companies.suspendedAt,
      resellerEmail: resellers.email,
      /** Where its e-mailed links point and whose name signs them (`mailSiteOf`). */
      reseller: {
        brandName: resellers.resellerName,
        name: resellers.name,
        domains: resellerDomainsColumn,
      },
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

/** The columns of the signed-in user's profile; the query joins `companies` and `resellers`. */
export const profileColumns = {
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
  primaryColor: resellers.primaryColor,
  orderUrlNewCustomer: resellers.orderUrlNewCustomer,
  orderUrlAccountChanges: resellers.orderUrlAccountChanges,
};

const profileQuery = (db: Db) =>
  db
    .select(profileColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId));
type ProfileRow = Awaited<ReturnType<typeof profileQuery>>[number];

/** The profile (contract `user`) from a row holding `profileColumns` (and maybe more). */
export function toProfile(row: ProfileRow): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    createdAt: row.createdAt,
    isAdmin: row.isAdmin,
    isReseller: row.isReseller,
    forcePasswordReset: row.forcePasswordReset,
    resellerEmail: row.resellerEmail,
    companyName: row.companyName,
    logoUrl: row.logoUrl,
    resellerName: row.resellerName,
    tabLogoUrl: row.tabLogoUrl,
    primaryColor: row.primaryColor,
    resetKey: null,
    // The order forms are the reseller's own business: only its staff get them.
    orderUrls: row.isReseller
      ? { newCustomer: row.orderUrlNewCustomer, accountChanges: row.orderUrlAccountChanges }
      : { newCustomer: null, accountChanges: null },
  };
}

/** The signed-in user with the branding of their company and reseller (contract `user`). */
export async function findUserProfile(db: Db, userId: number): Promise<User | undefined> {
  const [row] = await profileQuery(db).where(eq(users.id, userId));
  return row && toProfile(row);
}

const sortKeys = (column: ListUsersQuery['sortColumn']): SQL[] => {
  switch (column) {
    case 'name':
      // The name the list shows (an invited user's address), in natural order, by its stored key.
      return [sql`${users.nameKey}`];
    case 'email':
      return [sql`${users.email}`];
    case 'createdAt':
      return [sql`${users.createdAt}`];
  }
};

/**
 * One page of the company's users; filtering, sorting and paging happen in SQL. The route checks
 * that `excludeTeamId` is a team the caller may see before asking.
 */
export async function listCompanyUsers(
  db: Db,
  companyId: number,
  query: ListUsersQuery,
): Promise<{ data: UserRow[]; totalPages: number }> {
  const pattern = containsPattern(query.search);
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
    query.excludeTeamId === undefined
      ? undefined
      : notExists(
          db
            .select({ one: sql`1` })
            .from(teamMembers)
            .where(
              and(eq(teamMembers.teamId, query.excludeTeamId), eq(teamMembers.userId, users.id)),
            ),
        ),
  );
  const direction = query.sortDescending ? desc : asc;
  // The id breaks ties so that paging never shows a row twice or skips one.
  const orderBy = [...sortKeys(query.sortColumn), sql`${users.id}`].map((key) => direction(key));

  const offset = (query.page - 1) * query.rowsPerPage;
  // A function: query builders change in place, and the count and the page each need their own.
  const matching = () => db.select({ id: users.id }).from(users).where(where);
  const total = query.search
    ? boundedCount(matching(), offset)
    : query.excludeTeamId === undefined
      ? keptCount(db, 'users', companyId)
      : // Every member of a team is a user of its company.
        sql<number>`${keptCount(db, 'users', companyId)} - ${keptCount(db, 'team_members', query.excludeTeamId)}`.mapWith(
          Number,
        );
  const ids = matching()
    .orderBy(...orderBy)
    .limit(query.rowsPerPage)
    .offset(offset);
  const rows = await db
    .select({
      total,
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      createdAt: users.createdAt,
      isAdmin: users.isAdmin,
    })
    .from(users)
    .where(oneOf(users.id, ids))
    .orderBy(...orderBy);
  return pageWithTotal(db, rows, total, query.rowsPerPage);
}

/** A user of the company for the user page; undefined for an unknown id or another company's. */
export async function findCompanyUser(
  db: Db,
  companyId: number,
  userId: number,
): Promise<UserDetails | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      createdAt: users.createdAt,
      isAdmin: users.isAdmin,
      activatedAt: users.activatedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
  if (!row) return undefined;
  const { activatedAt, ...details } = row;
  return { ...details, activated: activatedAt !== null };
}

/**
 * One page of a user's team memberships, by team name. `teamIds` limits them to the teams the
 * caller may see (`'all'` for an Admin or the user themself).
 */
export async function listUserTeams(
  db: Db,
  input: {
    companyId: number;
    userId: number;
    teamIds: number[] | 'all';
    query: UserTeamsQuery;
  },
): Promise<UserTeamPage> {
  const { query } = input;
  const where = and(
    eq(teamMembers.userId, input.userId),
    eq(teams.companyId, input.companyId),
    input.teamIds === 'all' ? undefined : inArray(teams.id, input.teamIds),
    query.search ? ilike(teams.name, containsPattern(query.search)) : undefined,
  );
  const offset = (query.page - 1) * query.rowsPerPage;
  // A function: query builders change in place, and the count and the page each need their own.
  const matching = () =>
    db
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(where);
  // A user's teams are all of their company: unfiltered, the kept count is the list's.
  const total =
    input.teamIds === 'all' && !query.search
      ? keptCount(db, 'user_teams', input.userId)
      : boundedCount(matching(), offset);
  const byName = [teams.nameKey, teams.id];
  const ids = matching()
    .orderBy(...byName)
    .limit(query.rowsPerPage)
    .offset(offset);
  const rows = await db
    .select({ total, id: teams.id, name: teams.name, roleId: teamMembers.roleId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.userId, input.userId), oneOf(teamMembers.teamId, ids)))
    .orderBy(...byName);
  return pageWithTotal(db, rows, total, query.rowsPerPage);
}
