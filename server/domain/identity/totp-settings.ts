import { eq } from 'drizzle-orm';
import { secondFactorMessages } from '../../../src/api/contract/second-factor';
import { authMessages } from '../../../src/api/contract/auth';
import { companies } from '../../db/schema';
import { badRequest, conflict } from '../../http-error';
import type { ApiDeps } from '../../routes/deps';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { verifyPassword } from './passwords';
import { recordFactor, secondStepOf } from './second-step';
import { confirmTotp, removeTotp, startTotpEnrolment, useSecondFactorCode } from './totp';
import { DEFAULT_BRAND, findPasswordHash, findUserProfile } from './users-repository';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'secrets'>;
interface Who {
  userId: number;
  companyId: number;
  sessionId: number;
}

/**
 * A new pending secret for the caller's app. The QR code names the reseller's brand (the
 * console the user signs in to) and the user's e-mail, as authenticator apps list them.
 */
export async function enrolTotp(deps: Deps, who: Who) {
  const profile = (await findUserProfile(deps.db, who.userId))!;
  const result = await deps.db.transaction((tx) =>
    startTotpEnrolment(tx, deps.secrets, {
      userId: who.userId,
      issuer: profile.resellerName ?? DEFAULT_BRAND,
      label: profile.email,
      now: deps.clock.now(),
    }),
  );
  if (result === 'already-enrolled') throw conflict(secondFactorMessages.totpAlreadyEnrolled);
  return result;
}

/**
 * The app's first code turns it on. The session that did it has now passed the app (a company's
 * policy counts it so); the ten recovery codes are answered this once.
 */
export async function confirmTotpEnrolment(deps: Deps, who: Who, code: string) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const result = await confirmTotp(
      tx,
      { secrets: deps.secrets, appSecret: deps.config.appSecret },
      { userId: who.userId, code, now },
    );
    switch (result.outcome) {
      case 'not-pending':
        throw conflict(secondFactorMessages.totpNotPending);
      case 'already-enrolled':
        throw conflict(secondFactorMessages.totpAlreadyEnrolled);
      case 'invalid':
        throw badRequest(secondFactorMessages.totpInvalidCode, 'code');
      case 'replayed':
        throw badRequest(secondFactorMessages.codeReused, 'code');
    }
    await recordFactor(tx, who.sessionId, 'totp');
    await recordAppEvent(tx, who, 'authenticator.enable', now);
    return result.recoveryCodes;
  });
}

/**
 * Turning the app off takes the password and a code (the app's or a recovery code): a session
 * left open on a shared computer is not enough. A user whose company requires a strong second
 * factor keeps the app unless they have a passkey.
 */
export async function disableTotp(deps: Deps, who: Who, input: { password: string; code: string }) {
  const hash = await findPasswordHash(deps.db, who.userId);
  if (!hash || !(await verifyPassword(hash, input.password))) {
    throw badRequest(authMessages.currentPasswordIncorrect, 'password');
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const step = await secondStepOf(tx, who.userId);
    if (step.secondFactor !== 'totp') throw conflict(secondFactorMessages.totpNotEnrolled);
    const [company] = await tx
      .select({ requires: companies.requireStrongSecondFactor })
      .from(companies)
      .where(eq(companies.id, who.companyId));
    if (company?.requires && !step.passkey) {
      throw conflict(secondFactorMessages.totpNeededByPolicy);
    }
    const used = await useSecondFactorCode(
      tx,
      { secrets: deps.secrets, appSecret: deps.config.appSecret },
      { userId: who.userId, code: input.code, now },
    );
    if (used === 'replayed') throw badRequest(secondFactorMessages.codeReused, 'code');
    if (used !== 'totp' && used !== 'recovery') {
      throw badRequest(authMessages.invalidCode, 'code');
    }
    await removeTotp(tx, who.userId);
    await recordAppEvent(tx, who, 'authenticator.disable', now);
  });
}

async function recordAppEvent(
  tx: Parameters<typeof recordFactor>[0],
  who: Who,
  action: 'authenticator.enable' | 'authenticator.disable',
  at: Date,
) {
  const actor = await userActor(tx, who.userId);
  await recordEvent(tx, {
    companyId: who.companyId,
    actor,
    subject: { type: 'user', id: who.userId, name: actor.name },
    action,
    outcome: 'succeeded',
    at,
  });
}
