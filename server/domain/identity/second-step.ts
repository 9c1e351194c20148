import { eq, sql } from 'drizzle-orm';
import type { SecondFactorStatus, SecondStep } from '../../../src/api/contract/second-factor';
import type { Db, Tx } from '../../db/client';
import { companies, sessions, users } from '../../db/schema';
import { userTotp, webauthnCredentials } from '../../db/self-service-schema';
import type { SecretBox } from '../secrets';
import { checkCode, CODE_TTL_MS, MAX_CODE_ATTEMPTS, type CodeCheck } from './one-time-codes';
import { unusedRecoveryCodes, useSecondFactorCode } from './totp';

/** A column expression for queries that select from `users`: the user's app is confirmed. */
const hasConfirmedApp = sql<boolean>`exists (select 1 from ${userTotp} where ${userTotp.userId} = ${users.id} and ${userTotp.confirmedAt} is not null)`;
/** The user has a passkey or security key (a WebAuthn credential). */
const hasPasskey = sql<boolean>`exists (select 1 from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${users.id})`;

/**
 * The company requires a strong second factor (an authenticator app or a passkey) and the user
 * has neither: the session's guard, for queries that join `users` and `companies`.
 */
export const mustEnrolSecondFactor = sql<boolean>`(${companies.requireStrongSecondFactor} and not (${hasConfirmedApp} or ${hasPasskey}))`;

/** Whether the user has a confirmed app or a passkey. */
export async function hasStrongSecondFactor(db: Db | Tx, userId: number): Promise<boolean> {
  const step = await secondStepOf(db, userId);
  return step.secondFactor === 'totp' || step.passkey;
}

/** Which second step the sign-in asks of the user, and whether they could use a passkey. */
export async function secondStepOf(db: Db | Tx, userId: number): Promise<SecondStep> {
  const [row] = await db
    .select({
      totp: hasConfirmedApp,
      passkey: hasPasskey,
    })
    .from(users)
    .where(eq(users.id, userId));
  return { secondFactor: row?.totp ? 'totp' : 'email', passkey: row?.passkey ?? false };
}

/** The caller's second factors and what their company asks of them. */
export async function secondFactorStatusOf(db: Db, userId: number): Promise<SecondFactorStatus> {
  const [row] = await db
    .select({
      totpEnabledAt: userTotp.confirmedAt,
      passkey: hasPasskey,
      companyRequires: companies.requireStrongSecondFactor,
      enrolmentRequired: mustEnrolSecondFactor,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(userTotp, eq(userTotp.userId, users.id))
    .where(eq(users.id, userId));
  const totpEnabledAt = row?.totpEnabledAt ?? null;
  return {
    secondFactor: totpEnabledAt ? 'totp' : 'email',
    passkey: row?.passkey ?? false,
    totpEnabledAt,
    recoveryCodesLeft: totpEnabledAt ? await unusedRecoveryCodes(db, userId) : 0,
    companyRequires: row?.companyRequires ?? false,
    enrolmentRequired: row?.enrolmentRequired ?? false,
  };
}

/**
 * A new session of a user with an authenticator app waits for the app's code: no code is made
 * or e-mailed, but the same window and the same count of tries apply.
 */
export async function awaitAppCode(tx: Tx, input: { sessionId: number; now: Date }) {
  await tx
    .update(sessions)
    .set({
      codeHash: null,
      codeExpiresAt: new Date(input.now.getTime() + CODE_TTL_MS),
      codeAttempts: 0,
    })
    .where(eq(sessions.id, input.sessionId));
}

/** `replayed`: the app's code of a time step already used. */
export type SecondStepCheck = CodeCheck | 'replayed';

/**
 * The second step of a pending session: the e-mailed code when the sign-in sent one, else the
 * app's code or a recovery code. Either way five wrong tries end the session's chances, and the
 * session records which factor passed. Run it in the transaction that commits the outcome.
 */
export async function checkSecondStep(
  tx: Tx,
  deps: { secrets: SecretBox; appSecret: string },
  input: { sessionId: number; userId: number; code: string; now: Date },
): Promise<SecondStepCheck> {
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
  if (!row || row.verifiedAt) return 'already-used';

  if (row.codeHash) {
    const outcome = await checkCode(tx, { ...input, appSecret: deps.appSecret });
    if (outcome === 'verified') await recordFactor(tx, input.sessionId, 'email');
    return outcome;
  }

  if (row.codeAttempts >= MAX_CODE_ATTEMPTS) return 'exhausted';
  if (!row.codeExpiresAt || row.codeExpiresAt <= input.now) return 'expired';
  const used = await useSecondFactorCode(tx, deps, input);
  // The app was turned off meanwhile (from another session): this sign-in cannot finish.
  if (used === 'not-enrolled') return 'expired';
  if (used === 'invalid' || used === 'replayed') {
    await tx
      .update(sessions)
      .set({ codeAttempts: sql`${sessions.codeAttempts} + 1` })
      .where(eq(sessions.id, input.sessionId));
    return used;
  }
  await tx
    .update(sessions)
    .set({ verifiedAt: input.now, codeExpiresAt: null, secondFactor: used })
    .where(eq(sessions.id, input.sessionId));
  return 'verified';
}

/** How the session's second step was passed (Profile → Sessions, the company's policy). */
export async function recordFactor(
  tx: Tx,
  sessionId: number,
  factor: 'email' | 'totp' | 'recovery' | 'passkey',
) {
  await tx.update(sessions).set({ secondFactor: factor }).where(eq(sessions.id, sessionId));
}
