import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { ROLE, type RoleId } from '../../../src/api/contract/roles';
import {
  companies,
  distributors,
  resellers,
  teamMembers,
  teams,
  users,
} from '../../../server/db/schema';
import { hash } from '@node-rs/argon2';

/** Satisfies the password rule; every seeded user has it unless told otherwise. */
export const TEST_PASSWORD = 'Correct#Horse42';
export const NEW_PASSWORD = 'Battery$Staple77';

const unique = () => randomBytes(4).toString('hex');

const hashes = new Map<string, Promise<string>>();
/**
 * argon2id as the server stores it, at the lowest cost: a hash says its own cost, so each sign-in
 * of a seeded user (a dozen per test world) checks it in a millisecond rather than the ~50 ms of
 * the server's settings. The passwords the server hashes itself (activation, reset, change) keep
 * those settings, and their tests read them.
 */
const cachedHash = (password: string) => {
  let hashed = hashes.get(password);
  if (!hashed) {
    // The library's algorithm, as the server's: argon2id.
    hashed = hash(password, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    hashes.set(password, hashed);
  }
  return hashed;
};

export interface CompanyOptions {
  name?: string;
  logoUrl?: string | null;
  resellerName?: string | null;
  resellerEmail?: string;
  resellerLogoUrl?: string | null;
  tabLogoUrl?: string | null;
}

/** A distributor, reseller and company, straight into the database. */
export async function createCompany(db: Db, options: CompanyOptions = {}) {
  const tag = unique();
  const [distributor] = await db
    .insert(distributors)
    .values({ externalId: `d-${tag}`, name: `Distributor ${tag}`, email: `d-${tag}@example.com` })
    .returning();
  const [reseller] = await db
    .insert(resellers)
    .values({
      externalId: `r-${tag}`,
      distributorId: distributor!.id,
      name: `Reseller ${tag}`,
      email: options.resellerEmail ?? `support-${tag}@reseller.example`,
      resellerName: options.resellerName ?? null,
      logoUrl: options.resellerLogoUrl ?? null,
      tabLogoUrl: options.tabLogoUrl ?? null,
    })
    .returning();
  const [company] = await db
    .insert(companies)
    .values({
      externalId: `c-${tag}`,
      resellerId: reseller!.id,
      name: options.name ?? `Company ${tag}`,
      logoUrl: options.logoUrl ?? null,
    })
    .returning();
  return { company: company!, reseller: reseller! };
}

export interface UserOptions {
  companyId: number;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** null: an invited user who has not activated the account yet. */
  password?: string | null;
  isAdmin?: boolean;
  isReseller?: boolean;
  forcePasswordReset?: boolean;
  createdAt?: Date;
}

export async function createUser(db: Db, options: UserOptions) {
  const password = options.password === undefined ? TEST_PASSWORD : options.password;
  const [user] = await db
    .insert(users)
    .values({
      companyId: options.companyId,
      email: options.email ?? `user-${unique()}@example.com`,
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? 'User',
      passwordHash: password === null ? null : await cachedHash(password),
      isAdmin: options.isAdmin ?? false,
      isReseller: options.isReseller ?? false,
      forcePasswordReset: options.forcePasswordReset ?? false,
      activatedAt: password === null ? null : new Date('2026-01-01T00:00:00Z'),
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning();
  return { ...user!, password };
}

/** A team of the company, straight into the database. */
export async function createTeam(
  db: Db,
  options: { companyId: number; name?: string; parentTeamId?: number | null },
) {
  const [team] = await db
    .insert(teams)
    .values({
      companyId: options.companyId,
      name: options.name ?? `Team ${unique()}`,
      parentTeamId: options.parentTeamId ?? null,
    })
    .returning();
  return team!;
}

/** Puts a user in a team with a role (ROLE.viewer unless told otherwise). */
export async function addTeamMember(
  db: Db,
  options: { teamId: number; userId: number; roleId?: RoleId },
) {
  await db.insert(teamMembers).values({
    teamId: options.teamId,
    userId: options.userId,
    roleId: options.roleId ?? ROLE.viewer,
  });
}

/**
 * A staff company for the reseller of `companyId`, as the reseller import makes one (`tag` keeps
 * the external ids of two worlds' staff companies apart).
 */
export async function staffCompanyOf(db: Db, companyId: number, tag: string) {
  const [own] = await db
    .select({ resellerId: companies.resellerId })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [staff] = await db
    .insert(companies)
    .values({
      externalId: `reseller:${tag}-${own!.resellerId}`,
      resellerId: own!.resellerId,
      name: 'Staff',
      isResellerStaff: true,
    })
    .returning({ id: companies.id });
  return { resellerId: own!.resellerId, staffCompanyId: staff!.id };
}
