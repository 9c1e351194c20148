import { createHmac, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import {
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
} from '../../../src/api/contract/second-factor';
import type { Db, Tx } from '../../db/client';
import { recoveryCodes, userTotp } from '../../db/self-service-schema';
import { deriveKey } from '../app-keys';
import type { SecretBox } from '../secrets';

/** RFC 6238's defaults, which every authenticator app reads from the QR code. */
const PERIOD_S = 30;
/** A code of the step before or after is still taken: a phone's clock a little off. */
const TOLERANCE_S = PERIOD_S;

export type AppCodeMatch = { timeStep: number } | 'replayed' | 'invalid';

/**
 * The app's code against the secret at `now`, one step either side. A code of a step at or
 * before `lastStep` (the last one accepted) is `replayed`: each code works once in its window.
 */
export async function matchAppCode(
  secret: string,
  code: string,
  now: Date,
  lastStep: number | null,
): Promise<AppCodeMatch> {
  if (!/^\d{6}$/.test(code)) return 'invalid';
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: PERIOD_S,
    epochTolerance: TOLERANCE_S,
  });
  // The TOTP strategy's answer always carries the step (the HOTP one shares the type).
  if (!result.valid || !('timeStep' in result)) return 'invalid';
  if (lastStep !== null && result.timeStep <= lastStep) return 'replayed';
  return { timeStep: result.timeStep };
}

/** The user's app, locked for the caller's transaction; undefined when there is none. */
export async function lockTotp(tx: Tx, userId: number) {
  const [row] = await tx.select().from(userTotp).where(eq(userTotp.userId, userId)).for('update');
  return row;
}

/** Whether the user's app is confirmed (a pending enrolment is no second factor yet). */
export async function hasConfirmedTotp(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ confirmedAt: userTotp.confirmedAt })
    .from(userTotp)
    .where(eq(userTotp.userId, userId));
  return !!row?.confirmedAt;
}

/** A pending secret for the user's app, replacing any earlier pending one. */
export async function startTotpEnrolment(
  tx: Tx,
  secrets: SecretBox,
  input: { userId: number; issuer: string; label: string; now: Date },
): Promise<{ secret: string; otpauthUri: string } | 'already-enrolled'> {
  const existing = await lockTotp(tx, input.userId);
  if (existing?.confirmedAt) return 'already-enrolled';
  const secret = generateSecret();
  const values = { secretSealed: secrets.seal(secret), confirmedAt: null, lastStep: null };
  await tx
    .insert(userTotp)
    .values({ userId: input.userId, createdAt: input.now, ...values })
    .onConflictDoUpdate({ target: userTotp.userId, set: { ...values, createdAt: input.now } });
  const otpauthUri = generateURI({
    issuer: input.issuer,
    label: input.label,
    secret,
    period: PERIOD_S,
  });
  return { secret, otpauthUri };
}

export type ConfirmOutcome =
  | { outcome: 'confirmed'; recoveryCodes: string[] }
  | { outcome: 'not-pending' | 'already-enrolled' | 'invalid' | 'replayed' };

/**
 * The first code from the app confirms its secret: from now on the sign-in asks for the app's
 * code. Answers ten new recovery codes (any earlier ones stop working).
 */
export async function confirmTotp(
  tx: Tx,
  deps: { secrets: SecretBox; appSecret: string },
  input: { userId: number; code: string; now: Date },
): Promise<ConfirmOutcome> {
  const row = await lockTotp(tx, input.userId);
  if (!row) return { outcome: 'not-pending' };
  if (row.confirmedAt) return { outcome: 'already-enrolled' };
  const match = await matchAppCode(
    deps.secrets.open(row.secretSealed),
    input.code,
    input.now,
    row.lastStep,
  );
  if (typeof match === 'string') return { outcome: match };
  await tx
    .update(userTotp)
    .set({ confirmedAt: input.now, lastStep: match.timeStep })
    .where(eq(userTotp.userId, input.userId));
  const codes = await replaceRecoveryCodes(tx, deps.appSecret, input.userId, input.now);
  return { outcome: 'confirmed', recoveryCodes: codes };
}

/** Takes the app and its recovery codes away. */
export async function removeTotp(tx: Tx, userId: number) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(userTotp).where(eq(userTotp.userId, userId));
}

/**
 * The app's code (used once in its window: `lastStep` moves on) or an unused recovery code
 * (marked used), for a user whose app is confirmed. Run it in the transaction that commits the
 * outcome; the app's row lock keeps two uses of one code from both succeeding.
 */
export async function useSecondFactorCode(
  tx: Tx,
  deps: { secrets: SecretBox; appSecret: string },
  input: { userId: number; code: string; now: Date },
): Promise<'totp' | 'recovery' | 'replayed' | 'invalid' | 'not-enrolled'> {
  const row = await lockTotp(tx, input.userId);
  if (!row?.confirmedAt) return 'not-enrolled';
  if (/^\d{6}$/.test(input.code)) {
    const match = await matchAppCode(
      deps.secrets.open(row.secretSealed),
      input.code,
      input.now,
      row.lastStep,
    );
    if (typeof match === 'string') return match;
    await tx
      .update(userTotp)
      .set({ lastStep: match.timeStep })
      .where(eq(userTotp.userId, input.userId));
    return 'totp';
  }
  const hash = recoveryCodeHash(deps.appSecret, input.userId, input.code);
  const [used] = await tx
    .update(recoveryCodes)
    .set({ usedAt: input.now })
    .where(
      and(
        eq(recoveryCodes.userId, input.userId),
        eq(recoveryCodes.codeHash, hash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used ? 'recovery' : 'invalid';
}

export async function unusedRecoveryCodes(db: Db | Tx, userId: number): Promise<number> {
  const rows = await db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}

/** Base32's letters and digits: no 0/O or 1/l to confuse when read off paper. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Keyed and bound to the user: a leaked table cannot be searched for codes offline. */
function recoveryCodeHash(appSecret: string, userId: number, code: string): string {
  const plain = normalizeRecoveryCode(code).replace('-', '');
  return createHmac('sha256', deriveKey(appSecret, 'one-time-codes'))
    .update(`recovery:${userId}:${plain}`)
    .digest('hex');
}

async function replaceRecoveryCodes(tx: Tx, appSecret: string, userId: number, now: Date) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(
    codes.map((code) => ({
      userId,
      codeHash: recoveryCodeHash(appSecret, userId, code),
      createdAt: now,
    })),
  );
  return codes;
}
