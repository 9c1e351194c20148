import Bowser from 'bowser';
import { and, desc, eq, gt, isNotNull, isNull, ne } from 'drizzle-orm';
import { sessionMessages, type UserSession } from '../../../src/api/contract/sessions';
import { userMessages } from '../../../src/api/contract/users';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { notFound } from '../../http-error';
import { requireAdmin, type Caller } from '../tenancy/access';

/** What is kept of a client's User-Agent at sign-in. */
export const USER_AGENT_MAX = 512;

export const trimUserAgent = (value: string | string[] | undefined): string | null => {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text.slice(0, USER_AGENT_MAX) : null;
};

/** "Chrome 131", "macOS 14.5", "desktop" out of a User-Agent; null where it says nothing. */
export function describeUserAgent(userAgent: string | null) {
  if (!userAgent) return { browser: null, system: null, device: null };
  const { browser, os, platform } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const join = (...parts: (string | undefined)[]) => parts.filter((part) => part).join(' ') || null;
  return {
    browser: browser.name ? join(browser.name, major) : null,
    system: os.name ? join(os.name, os.version) : null,
    device: platform.type ?? null,
  };
}

/** Verified, neither revoked nor expired. */
const live = (now: Date) =>
  and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), isNotNull(sessions.verifiedAt));

/** The caller's own signed-in sessions, the most recently seen first; `current` marks theirs. */
export async function listOwnSessions(
  db: Db,
  caller: { userId: number; sessionId: number },
  now: Date,
): Promise<UserSession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      address: sessions.ipAddress,
      signedInAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      secondFactor: sessions.secondFactor,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, caller.userId), live(now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows.map((row) => ({
    ...row,
    ...describeUserAgent(row.userAgent),
    current: row.id === caller.sessionId,
  }));
}

/**
 * Ends one of the caller's own sessions; anyone else's, or one already over, answers 404 as a
 * session that does not exist. Revoking notifies every server process (migration 0009), which
 * closes the session's event streams and consoles at once.
 */
export async function endOwnSession(
  db: Db,
  caller: { userId: number },
  sessionId: number,
  now: Date,
) {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, caller.userId), live(now)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound(sessionMessages.notFound);
}

/** Ends every session of the caller's but the one they ask with (pending sign-ins included). */
export async function endOtherSessions(
  db: Db,
  caller: { userId: number; sessionId: number },
  now: Date,
): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, caller.userId),
        ne(sessions.id, caller.sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** An Admin ends every session of a user of their company (another company's user: 404). */
export async function endUserSessions(
  db: Db,
  caller: Caller,
  userId: number,
  now: Date,
): Promise<number> {
  requireAdmin(caller);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, caller.companyId)));
  if (!user) throw notFound(userMessages.notFound);
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    )
    .returning({ id: sessions.id });
  return ended.length;
}
