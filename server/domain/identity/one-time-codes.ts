import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { sessions } from '../../db/schema';
import { deriveKey } from '../app-keys';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;

export const newCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

/** Keyed by the session, so a code is worth nothing to any other session. */
const codeHash = (appSecret: string, sessionId: number, code: string) =>
  createHmac('sha256', deriveKey(appSecret, 'one-time-codes'))
    .update(`${sessionId}:${code}`)
    .digest('hex');

export async function attachCode(
  tx: Tx,
  input: { sessionId: number; code: string; appSecret: string; now: Date },
) {
  await tx
    .update(sessions)
    .set({
      codeHash: codeHash(input.appSecret, input.sessionId, input.code),
      codeExpiresAt: new Date(input.now.getTime() + CODE_TTL_MS),
      codeAttempts: 0,
    })
    .where(eq(sessions.id, input.sessionId));
}

export type CodeCheck = 'verified' | 'invalid' | 'exhausted' | 'expired' | 'already-used';

/**
 * Checks the code of a session under a row lock, so two guesses at once cannot both be counted as
 * the first, and a correct code verifies the session exactly once. Run it inside the transaction
 * that must commit the outcome: a wrong guess is counted even though the request fails.
 */
export async function checkCode(
  tx: Tx,
  input: { sessionId: number; code: string; appSecret: string; now: Date },
): Promise<CodeCheck> {
  const [row] = await tx
    .select({
      codeHash: sessions.codeHash,
      codeExpiresAt: sessions.codeExpiresAt,
      codeAttempts: sessions.codeAttempts,
      verifiedAt: sessions.verifiedAt,
    })
    .from(sessions)
    .where(eq(sessions.id, input.sessionId))
    .for('update');
  if (!row || row.verifiedAt || !row.codeHash) return 'already-used';
  if (row.codeAttempts >= MAX_CODE_ATTEMPTS) return 'exhausted';
  if (!row.codeExpiresAt || row.codeExpiresAt <= input.now) return 'expired';

  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(codeHash(input.appSecret, input.sessionId, input.code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    await tx
      .update(sessions)
      .set({ codeAttempts: sql`${sessions.codeAttempts} + 1` })
      .where(eq(sessions.id, input.sessionId));
    return 'invalid';
  }
  await tx
    .update(sessions)
    .set({ verifiedAt: input.now, codeHash: null, codeExpiresAt: null })
    .where(eq(sessions.id, input.sessionId));
  return 'verified';
}
