import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  API_TOKEN_MAX_LIFETIME_DAYS,
  API_TOKEN_PATTERN,
  apiTokenMessages,
  type ApiToken,
  type ApiTokenAccess,
} from '../../../src/api/contract/api-tokens';
import { userMessages } from '../../../src/api/contract/users';
import type { Db, Tx } from '../../db/client';
import { events } from '../../db/event-schema';
import { apiTokens, companies, resellers, teams, users } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http-error';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { requireAdmin, teamRoleOf, type Caller } from '../tenancy/access';
import { mustEnrolSecondFactor } from './second-step';
import { hashSecretToken } from './secret-tokens';
import type { SessionCaller } from './sessions';

const DAY_MS = 24 * 60 * 60_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Last use is kept this coarsely, so that a script's every call does not write a row. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * `lp_` and 32 random bytes in base62, 43 digits: a prefix secret scanners can match, and no
 * character that needs escaping in a shell or a header. Base62 is four lines, not a dependency.
 */
export function newApiTokenSecret(): string {
  let value = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let digits = '';
  for (let i = 0; i < 43; i++) {
    digits = BASE62[Number(value % 62n)] + digits;
    value /= 62n;
  }
  return `lp_${digits}`;
}

export const isApiTokenSecret = (value: string) => API_TOKEN_PATTERN.test(value);

const tokenColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  access: apiTokens.access,
  teamIds: apiTokens.teamIds,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
  lastUsedFrom: apiTokens.lastUsedFrom,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};

type TokenRow = Omit<ApiToken, 'user' | 'teams'> & {
  teamIds: number[] | null;
  userId: number;
  firstName: string;
  lastName: string;
  email: string;
};

const toApiToken = (row: TokenRow, teamNames: ReadonlyMap<number, string>): ApiToken => ({
  id: row.id,
  name: row.name,
  access: row.access,
  teams:
    row.teamIds &&
    row.teamIds.flatMap((id) => {
      const name = teamNames.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
  lastUsedFrom: row.lastUsedFrom,
  user: {
    id: row.userId,
    name: `${row.firstName} ${row.lastName}`.trim() || row.email,
    email: row.email,
  },
});

const ofCompany = (caller: Caller) => eq(users.companyId, caller.companyId);

/**
 * Makes a token for the caller and answers its secret, the only time it exists outside the
 * caller's hands. Its expiry is in the future and a year away at most. Logs `apiToken.create`.
 */
export async function createApiToken(
  db: Db,
  caller: Caller,
  input: { name: string; expiresAt: Date; access: ApiTokenAccess; teamIds?: number[] },
  now: Date,
): Promise<{ token: ApiToken; secret: string }> {
  if (input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest(apiTokenMessages.expiryPast, 'expiresAt');
  }
  if (input.expiresAt.getTime() > now.getTime() + API_TOKEN_MAX_LIFETIME_DAYS * DAY_MS) {
    throw badRequest(apiTokenMessages.expiryTooFar, 'expiresAt');
  }
  const teamIds = input.teamIds && [...new Set(input.teamIds)];
  // A team the caller does not see answers as one that does not exist (another company's too).
  for (const teamId of teamIds ?? []) {
    if ((await teamRoleOf(db, caller, teamId)) === undefined) {
      throw new HttpError(404, apiTokenMessages.teamNotFound, 'teamIds');
    }
  }
  const secret = newApiTokenSecret();
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiTokens)
      .values({
        userId: caller.userId,
        name: input.name,
        tokenHash: hashSecretToken(secret),
        access: input.access,
        teamIds: teamIds ?? null,
        expiresAt: input.expiresAt,
        createdAt: now,
      })
      .returning({ id: apiTokens.id });
    const token = (await readTokens(tx, caller, eq(apiTokens.id, created!.id)))[0]!;
    await recordTokenEvent(tx, caller, token, 'apiToken.create', now, {
      access: token.access,
      expiresAt: token.expiresAt.toISOString(),
    });
    return { token, secret };
  });
}

async function readTokens(db: Db | Tx, caller: Caller, where: SQL) {
  const rows = await db
    .select(tokenColumns)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(ofCompany(caller), where))
    .orderBy(desc(apiTokens.id));
  const teamIds = [...new Set(rows.flatMap((row) => row.teamIds ?? []))];
  const named =
    teamIds.length === 0
      ? []
      : await db
          .select({ id: teams.id, name: teams.name })
          .from(teams)
          .where(and(eq(teams.companyId, caller.companyId), inArray(teams.id, teamIds)));
  const teamNames = new Map(named.map((team) => [team.id, team.name]));
  return rows.map((row) => toApiToken(row, teamNames));
}

/**
 * The caller's own tokens; an Admin may ask for another user's of the company (another company's
 * user answers 404) or for the whole company's. Expired tokens stay listed until revoked.
 */
export async function listApiTokens(
  db: Db,
  caller: Caller,
  query: { userId?: number; all: boolean },
): Promise<ApiToken[]> {
  if (query.all) {
    requireAdmin(caller);
    return readTokens(db, caller, sql`true`);
  }
  const userId = query.userId ?? caller.userId;
  if (userId !== caller.userId) {
    requireAdmin(caller);
    await requireCompanyUser(db, caller, userId);
  }
  return readTokens(db, caller, eq(apiTokens.userId, userId));
}

async function requireCompanyUser(db: Db | Tx, caller: Caller, userId: number) {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), ofCompany(caller)));
  if (!user) throw notFound(userMessages.notFound);
}

/**
 * Revokes one token: the caller's own, or, for an Admin, any of the company's. Anyone else's
 * answers 404, as a token that does not exist. Logs `apiToken.revoke`.
 */
export async function deleteApiToken(db: Db, caller: Caller, id: number, now: Date) {
  await db.transaction(async (tx) => {
    const [token] = await readTokens(tx, caller, eq(apiTokens.id, id));
    if (!token || (token.user.id !== caller.userId && !caller.isAdmin)) {
      throw notFound(apiTokenMessages.notFound);
    }
    await tx.delete(apiTokens).where(eq(apiTokens.id, id));
    await recordTokenEvent(tx, caller, token, 'apiToken.revoke', now);
  });
}

/** Revokes every token of a user: the caller's own, or, for an Admin, any user's of the company. */
export async function revokeAllApiTokens(
  db: Db,
  caller: Caller,
  input: { userId?: number },
  now: Date,
): Promise<number> {
  const userId = input.userId ?? caller.userId;
  return db.transaction(async (tx) => {
    if (userId !== caller.userId) {
      requireAdmin(caller);
      await requireCompanyUser(tx, caller, userId);
    }
    const tokens = await readTokens(tx, caller, eq(apiTokens.userId, userId));
    await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
    for (const token of tokens) await recordTokenEvent(tx, caller, token, 'apiToken.revoke', now);
    return tokens.length;
  });
}

async function recordTokenEvent(
  tx: Tx,
  caller: Caller,
  token: ApiToken,
  action: 'apiToken.create' | 'apiToken.revoke',
  now: Date,
  detail: Record<string, string> = {},
) {
  await recordEvent(tx, {
    companyId: caller.companyId,
    actor: await userActor(tx, caller.userId),
    subject: { type: 'apiToken', id: token.id, name: token.name },
    action,
    outcome: 'succeeded',
    detail: { userId: token.user.id, ...detail },
    at: now,
  });
}

/** A live token as the authentication hook reads it, with its user's current standing. */
export interface LiveApiToken {
  tokenId: number;
  name: string;
  access: ApiTokenAccess;
  /** The teams it is narrowed to; null: none. */
  teamIds: number[] | null;
  lastUsedAt: Date | null;
  lastUsedFrom: string | null;
  userId: number;
  companyId: number;
  isAdmin: boolean;
  isReseller: boolean;
  mustResetPassword: boolean;
  /** The company requires an app or a passkey the user has not set up (refused until then). */
  mustEnrolSecondFactor: boolean;
  /**
   * The user's company is suspended by its reseller: the token is refused while it lasts (it is
   * kept, and works again on resume), naming `resellerEmail` to contact.
   */
  suspended: boolean;
  resellerEmail: string;
}

/** A token that is neither revoked (deleted) nor expired, with its user's standing. */
async function findLive(db: Db, match: SQL, now: Date): Promise<LiveApiToken | undefined> {
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      name: apiTokens.name,
      access: apiTokens.access,
      teamIds: apiTokens.teamIds,
      lastUsedAt: apiTokens.lastUsedAt,
      lastUsedFrom: apiTokens.lastUsedFrom,
      userId: users.id,
      companyId: users.companyId,
      isAdmin: users.isAdmin,
      isReseller: users.isReseller,
      mustResetPassword: users.forcePasswordReset,
      mustEnrolSecondFactor,
      suspended: sql<boolean>`${companies.suspendedAt} is not null`,
      resellerEmail: resellers.email,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .where(and(match, sql`${apiTokens.expiresAt} > ${now}`));
  return row;
}

/** The live token of a secret. */
export const findLiveApiToken = (db: Db, secret: string, now: Date) =>
  findLive(db, eq(apiTokens.tokenHash, hashSecretToken(secret)), now);

/** The live token of an id (a console opened with a token's link). */
export const findLiveApiTokenById = (db: Db, id: number, now: Date) =>
  findLive(db, eq(apiTokens.id, id), now);

/**
 * Who a call with the token acts as: its user with the user's current rights, narrowed to the
 * token's teams, where an Admin acts as Admin of those teams only.
 */
export function apiTokenCaller(token: LiveApiToken): Caller & Pick<SessionCaller, 'teamScope'> {
  const teamScope = token.teamIds && { teamIds: token.teamIds, asAdmin: token.isAdmin };
  return {
    userId: token.userId,
    companyId: token.companyId,
    isAdmin: token.isAdmin && !teamScope,
    teamScope,
  };
}

/**
 * Notes a token's use: when and from where, kept to the minute. The first use from an address
 * the token has never been used from is an `apiToken.new-address` event.
 */
export async function noteApiTokenUse(
  db: Db,
  token: LiveApiToken,
  address: string,
  now: Date,
): Promise<void> {
  const sameAddress = token.lastUsedFrom === address;
  const recent =
    token.lastUsedAt !== null &&
    now.getTime() - token.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS;
  if (sameAddress && recent) return;
  await db.transaction(async (tx) => {
    await tx
      .update(apiTokens)
      .set({ lastUsedAt: now, lastUsedFrom: address })
      .where(eq(apiTokens.id, token.tokenId));
    if (sameAddress) return;
    const [seen] = await tx
      .select({ seq: events.seq })
      .from(events)
      .where(
        and(
          eq(events.companyId, token.companyId),
          eq(events.subjectType, 'apiToken'),
          eq(events.subjectId, token.tokenId),
          eq(events.action, 'apiToken.new-address'),
          sql`${events.detail}->>'address' = ${address}`,
        ),
      )
      .limit(1);
    if (seen) return;
    await recordEvent(tx, {
      companyId: token.companyId,
      actor: await userActor(tx, token.userId),
      subject: { type: 'apiToken', id: token.tokenId, name: token.name },
      action: 'apiToken.new-address',
      outcome: 'observed',
      detail: { address, userId: token.userId },
      at: now,
    });
  });
}
