import { and, eq, gt, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { User } from '../../../src/api/contract/auth';
import type { Db, Tx } from '../../db/client';
import { batchedRead } from '../../db/batched-read';
import { perDatabase, preparedOnce } from '../../db/prepared';
import { companies, resellers, sessions, users } from '../../db/schema';
import { mustEnrolSecondFactor } from './second-step';
import { hashSecretToken, newSecretToken } from './secret-tokens';
import { profileColumns, toProfile } from './users-repository';

const HOUR = 60 * 60_000;
export const SESSION_TTL_MS = 12 * HOUR;
export const REMEMBERED_SESSION_TTL_MS = 30 * 24 * HOUR;
/** However often it is renewed, a session ends this long after its sign-in. */
export const MAX_SESSION_AGE_MS = 90 * 24 * HOUR;
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

export interface TeamScope {
  teamIds: readonly number[];
  asAdmin: boolean;
}

/** A live session as the rest of the API sees it. */
export interface SessionCaller {
  /** The caller's session; null for a call made with an API token. */
  sessionId: number | null;
  /** The API token the call was made with; null for a session. */
  apiTokenId: number | null;
  /**
   * The teams an API token is narrowed to, and whether its user is an Admin (then `isAdmin` is
   * false: a narrowed token acts as Admin in those teams only). Null: no narrowing.
   */
  teamScope: TeamScope | null;
  userId: number;
  companyId: number;
  isAdmin: boolean;
  isReseller: boolean;
  verified: boolean;
  /** The user must set a new password before using anything else. */
  mustResetPassword: boolean;
  /**
   * The company requires an authenticator app or a passkey and the user has neither: only setting
   * one up is allowed (`config.allowedBeforeSecondFactor`).
   */
  mustEnrolSecondFactor: boolean;
}

/**
 * Inserts an unverified session; the caller attaches its one-time code in the same transaction.
 * `address` is the client's IP address, kept to tell a sign-in from a new place.
 */
export async function insertSession(
  tx: Tx,
  input: {
    userId: number;
    rememberMe: boolean;
    now: Date;
    address?: string | null;
    userAgent?: string | null;
  },
): Promise<{ sessionId: number; token: string }> {
  const token = newSecretToken();
  const ttl = input.rememberMe ? REMEMBERED_SESSION_TTL_MS : SESSION_TTL_MS;
  const [row] = await tx
    .insert(sessions)
    .values({
      userId: input.userId,
      tokenHash: hashSecretToken(token),
      rememberMe: input.rememberMe,
      expiresAt: new Date(input.now.getTime() + ttl),
      lastSeenAt: input.now,
      ipAddress: input.address ?? null,
      userAgent: input.userAgent ?? null,
      createdAt: input.now,
    })
    .returning({ id: sessions.id });
  return { sessionId: row!.id, token };
}

/**
 * The address of a session just verified when the user has never signed in from it before (no
 * other verified session of theirs has it), with the user's company; else undefined. Sessions
 * older than the address column have none, so a user's first sign-in after it counts as new.
 */
export async function newSignInAddress(
  tx: Tx,
  session: { sessionId: number; userId: number },
): Promise<{ address: string; companyId: number } | undefined> {
  const [row] = await tx
    .select({ address: sessions.ipAddress, companyId: users.companyId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, session.sessionId));
  if (!row?.address) return undefined;
  const [seen] = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, session.userId),
        eq(sessions.ipAddress, row.address),
        isNotNull(sessions.verifiedAt),
        ne(sessions.id, session.sessionId),
      ),
    )
    .limit(1);
  return seen ? undefined : { address: row.address, companyId: row.companyId };
}

const sessionColumns = {
  sessionId: sessions.id,
  userId: users.id,
  companyId: users.companyId,
  isAdmin: users.isAdmin,
  isReseller: users.isReseller,
  mustResetPassword: users.forcePasswordReset,
  mustEnrolSecondFactor,
  verifiedAt: sessions.verifiedAt,
  lastSeenAt: sessions.lastSeenAt,
};

/**
 * Neither revoked nor expired, of a company that is not suspended: suspending revokes the
 * company's sessions, and this refuses one made by a sign-in that raced it.
 */
const liveSessions = and(
  sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`,
  isNull(sessions.revokedAt),
  gt(sessions.expiresAt, sql.placeholder('now')),
  isNull(companies.suspendedAt),
);

/** Every call but the public ones starts with it: prepared once, the profile in the same read. */
const sessionsQuery = (db: Db) =>
  preparedOnce(db, 'live-sessions', (name) =>
    db
      .select({ ...sessionColumns, tokenHash: sessions.tokenHash })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(liveSessions)
      .prepare(name),
  );

const sessionsWithProfileQuery = (db: Db) =>
  preparedOnce(db, 'live-sessions-profile', (name) =>
    db
      .select({ ...sessionColumns, ...profileColumns, tokenHash: sessions.tokenHash })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .innerJoin(resellers, eq(resellers.id, companies.resellerId))
      .where(liveSessions)
      .prepare(name),
  );

type LiveSession = SessionCaller & { profile?: User };
type SessionReader = (tokenHash: string, now: Date) => Promise<LiveSession | undefined>;
const readersOf = perDatabase<SessionReader>();

/** The session checks of requests that arrive together, read in one query (`batchedRead`). */
function sessionReader(db: Db, withProfile: boolean): SessionReader {
  const readers = readersOf(db);
  const kind = withProfile ? 'with-profile' : 'caller';
  let reader = readers.get(kind);
  if (!reader) {
    reader = batchedRead(async (tokenHashes: string[], now) => {
      const values = { tokenHashes, now };
      if (withProfile) {
        const rows = await sessionsWithProfileQuery(db).execute(values);
        await markSeen(db, rows, now);
        return new Map(
          rows.map((row) => [row.tokenHash, { ...asCaller(row), profile: toProfile(row) }]),
        );
      }
      const rows = await sessionsQuery(db).execute(values);
      await markSeen(db, rows, now);
      return new Map(rows.map((row) => [row.tokenHash, asCaller(row)]));
    });
    readers.set(kind, reader);
  }
  return reader;
}

/**
 * The session of a token if it is neither revoked nor expired; with `withProfile`, the user's
 * profile too (contract `user`), read in the same query. Requests that arrive while a check is
 * being read are checked together in the next read, each still against what the database held
 * after it arrived.
 */
export async function findLiveSession(
  db: Db,
  token: string,
  now: Date,
  options: { withProfile?: boolean } = {},
): Promise<LiveSession | undefined> {
  return sessionReader(db, options.withProfile === true)(hashSecretToken(token), now);
}

/**
 * The sessions read together that were last seen long enough ago, marked seen now in one write.
 * Kept coarse so that reading data does not mean writing a row on every request.
 */
async function markSeen(db: Db, rows: { sessionId: number; lastSeenAt: Date }[], now: Date) {
  const stale = rows
    .filter((row) => now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
    .map((row) => row.sessionId);
  if (stale.length > 0) {
    await db.update(sessions).set({ lastSeenAt: now }).where(inArray(sessions.id, stale));
  }
}

function asCaller(
  row: Omit<SessionCaller, 'verified' | 'sessionId' | 'apiTokenId' | 'teamScope'> & {
    sessionId: number;
    verifiedAt: Date | null;
  },
): SessionCaller {
  return {
    sessionId: row.sessionId,
    apiTokenId: null,
    teamScope: null,
    userId: row.userId,
    companyId: row.companyId,
    isAdmin: row.isAdmin,
    isReseller: row.isReseller,
    mustResetPassword: row.mustResetPassword,
    mustEnrolSecondFactor: row.mustEnrolSecondFactor,
    verified: row.verifiedAt !== null,
  };
}

/**
 * Renews a live session: its expiry moves to a full lifetime from now (12 hours, or 30 days with
 * Remember me), never past MAX_SESSION_AGE_MS after the sign-in. Undefined when it is gone.
 */
export async function renewSession(
  db: Db,
  sessionId: number,
  now: Date,
): Promise<{ rememberMe: boolean; expiresAt: Date } | undefined> {
  const [session] = await db
    .select({ rememberMe: sessions.rememberMe, createdAt: sessions.createdAt })
    .from(sessions)
    .where(
      and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    );
  if (!session) return undefined;
  const ttl = session.rememberMe ? REMEMBERED_SESSION_TTL_MS : SESSION_TTL_MS;
  const expiresAt = new Date(
    Math.min(now.getTime() + ttl, session.createdAt.getTime() + MAX_SESSION_AGE_MS),
  );
  const [renewed] = await db
    .update(sessions)
    .set({ expiresAt, lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return renewed && { rememberMe: session.rememberMe, expiresAt };
}

export async function revokeSessionByToken(db: Db, token: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, hashSecretToken(token)), isNull(sessions.revokedAt)));
}

/** Signs the user out everywhere, or everywhere but `exceptSessionId`. */
export async function revokeUserSessions(
  tx: Tx,
  input: { userId: number; now: Date; exceptSessionId?: number },
) {
  await tx
    .update(sessions)
    .set({ revokedAt: input.now })
    .where(
      and(
        eq(sessions.userId, input.userId),
        isNull(sessions.revokedAt),
        input.exceptSessionId === undefined ? undefined : ne(sessions.id, input.exceptSessionId),
      ),
    );
}
