import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { sessions, users } from '../db/schema';
import { hashSecretToken, newSecretToken } from './secret-tokens';

const HOUR = 60 * 60_000;
export const SESSION_TTL_MS = 12 * HOUR;
export const REMEMBERED_SESSION_TTL_MS = 30 * 24 * HOUR;
/** However often it is renewed, a session ends this long after its sign-in. */
export const MAX_SESSION_AGE_MS = 90 * 24 * HOUR;
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** A live session as the rest of the API sees it. */
export interface SessionCaller {
  sessionId: number;
  userId: number;
  companyId: number;
  isAdmin: boolean;
  isReseller: boolean;
  verified: boolean;
  /** The user must set a new password before using anything else. */
  mustResetPassword: boolean;
}

/** Inserts an unverified session; the caller attaches its one-time code in the same transaction. */
export async function insertSession(
  tx: Tx,
  input: { userId: number; rememberMe: boolean; now: Date },
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
      createdAt: input.now,
    })
    .returning({ id: sessions.id });
  return { sessionId: row!.id, token };
}

/** The session of a token if it is neither revoked nor expired. */
export async function findLiveSession(
  db: Db,
  token: string,
  now: Date,
): Promise<SessionCaller | undefined> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      companyId: users.companyId,
      isAdmin: users.isAdmin,
      isReseller: users.isReseller,
      mustResetPassword: users.forcePasswordReset,
      verifiedAt: sessions.verifiedAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, hashSecretToken(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  if (!row) return undefined;
  // Kept coarse so that reading data does not mean writing a row on every request.
  if (now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  const { verifiedAt, lastSeenAt: _lastSeenAt, ...caller } = row;
  return { ...caller, verified: verifiedAt !== null };
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
