import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { webauthnChallenges } from '../../db/self-service-schema';
import { PASSKEY_CHALLENGE_TTL_MS } from '../../../src/api/contract/passkeys';

export type ChallengePurpose = 'register' | 'second-step' | 'sign-in';

/** Keeps a challenge until its answer comes, at most PASSKEY_CHALLENGE_TTL_MS; drops stale ones. */
export async function saveChallenge(
  db: Db | Tx,
  input: {
    challenge: string;
    purpose: ChallengePurpose;
    userId?: number;
    sessionId?: number;
    now: Date;
  },
) {
  await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, input.now));
  await db.insert(webauthnChallenges).values({
    challenge: input.challenge,
    purpose: input.purpose,
    userId: input.userId ?? null,
    sessionId: input.sessionId ?? null,
    expiresAt: new Date(input.now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: input.now,
  });
}

/** The challenge the browser's answer signed (base64url), read from its client data. */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' ? challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the challenge out, once: it must have been made for this purpose (and this session, when
 * one made it) and not have expired. Whatever the answer then turns out to be, it cannot be tried
 * again. Undefined when there is no such challenge.
 */
export async function consumeChallenge(
  db: Db | Tx,
  input: { challenge: string; purpose: ChallengePurpose; sessionId?: number; now: Date },
): Promise<{ userId: number | null } | undefined> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, input.challenge),
        eq(webauthnChallenges.purpose, input.purpose),
        input.sessionId === undefined
          ? undefined
          : eq(webauthnChallenges.sessionId, input.sessionId),
        gt(webauthnChallenges.expiresAt, input.now),
      ),
    )
    .returning({ userId: webauthnChallenges.userId });
  return row;
}
