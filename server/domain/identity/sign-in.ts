import type { User } from '../../../src/api/contract/auth';
import type { Tx } from '../../db/client';
import { signInCodeMail } from '../../mail/templates';
import type { ApiDeps } from '../../routes/deps';
import { mailSiteOf } from '../reseller/settings-mail-site';
import { clearLoginFailures, isLoginThrottled, recordLoginFailure } from './login-throttle';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { attachCode, newCode } from './one-time-codes';
import { verifyAgainstNothing, verifyPassword } from './passwords';
import type { SecondStep } from '../../../src/api/contract/second-factor';
import { awaitAppCode, checkSecondStep, secondStepOf, type SecondStepCheck } from './second-step';
import { insertSession, newSignInAddress } from './sessions';
import { issueUserToken } from './user-tokens';
import { DEFAULT_BRAND, findUserByEmail, findUserProfile } from './users-repository';

type Deps = Pick<ApiDeps, 'db' | 'clock' | 'config' | 'mailer' | 'secrets'>;

export type SignInResult =
  | { outcome: 'throttled' }
  | { outcome: 'rejected' }
  /** The password is right, but the company is suspended: who to contact. */
  | { outcome: 'suspended'; supportEmail: string }
  /** `secondFactor`: what the one-time-code page asks for; no e-mail is sent for the app. */
  | ({ outcome: 'code-sent'; token: string; user: User } & SecondStep);

/**
 * Email + password -> an unverified session whose one-time code is e-mailed. An unknown address,
 * a wrong password and an account never activated cost the same argon2 work and get one answer.
 * Only the right password learns that the company is suspended (no session is made then).
 * `address` (the client's IP) is kept on the session; see `verifySignInCode`.
 */
export async function signIn(
  deps: Deps,
  input: {
    email: string;
    password: string;
    rememberMe: boolean;
    address: string;
    /** The client's User-Agent, cut to USER_AGENT_MAX (Profile → Sessions names the browser). */
    userAgent: string | null;
  },
): Promise<SignInResult> {
  const { db, config } = deps;
  const limits = config.rateLimits;
  if (await isLoginThrottled(db, input.email, deps.clock.now(), limits)) {
    return { outcome: 'throttled' };
  }

  const account = await findUserByEmail(db, input.email);
  const passwordOk = account?.passwordHash
    ? await verifyPassword(account.passwordHash, input.password)
    : await verifyAgainstNothing(input.password);
  if (!account || !passwordOk || !account.activatedAt) {
    await recordLoginFailure(db, input.email, deps.clock.now(), limits);
    return { outcome: 'rejected' };
  }
  await clearLoginFailures(db, input.email);
  if (account.suspendedAt) return { outcome: 'suspended', supportEmail: account.resellerEmail };

  const now = deps.clock.now();
  const code = newCode();
  const { session, step } = await db.transaction(async (tx) => {
    const created = await insertSession(tx, {
      userId: account.id,
      rememberMe: input.rememberMe,
      address: input.address,
      userAgent: input.userAgent,
      now,
    });
    const step = await secondStepOf(tx, account.id);
    if (step.secondFactor === 'totp') {
      await awaitAppCode(tx, { sessionId: created.sessionId, now });
    } else {
      await attachCode(tx, {
        sessionId: created.sessionId,
        code,
        appSecret: config.appSecret,
        now,
      });
    }
    return { session: created, step };
  });
  if (step.secondFactor === 'email') {
    await deps.mailer.send({
      ...signInCodeMail(input.email, account.resellerName ?? DEFAULT_BRAND, code),
      fromName: mailSiteOf(config, account.reseller).fromName,
    });
  }

  const user = await findUserProfile(db, account.id);
  return { outcome: 'code-sent', token: session.token, user: user!, ...step };
}

export type CodeResult =
  { outcome: Exclude<SecondStepCheck, 'verified'> } | { outcome: 'verified'; user: User };

/**
 * The one-time code of a pending session. A user who must change their password receives a fresh
 * reset key here, once the code has proven they hold the mailbox. A sign-in from an address the
 * user never signed in from is logged (`session.new-address`) here, not at the password: only a
 * completed sign-in counts, and an address is known once the code has been given from it.
 */
export async function verifySignInCode(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'secrets'>,
  input: { sessionId: number; userId: number; code: string },
): Promise<CodeResult> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const outcome = await checkSecondStep(
      tx,
      { secrets: deps.secrets, appSecret: deps.config.appSecret },
      { sessionId: input.sessionId, userId: input.userId, code: input.code, now },
    );
    if (outcome !== 'verified') return { outcome };
    const user = await finishSignIn(tx, { ...input, now });
    return { outcome, user };
  });
}

/**
 * What a completed sign-in does whichever way its second step passed (a code, the app, a
 * passkey): a user who must change their password gets a fresh reset key, and a sign-in from an
 * address the user never signed in from is logged (`session.new-address`).
 */
export async function finishSignIn(
  tx: Tx,
  input: { sessionId: number; userId: number; now: Date },
): Promise<User> {
  const user = (await findUserProfile(tx, input.userId))!;
  if (user.forcePasswordReset) {
    user.resetKey = await issueUserToken(tx, { userId: user.id, kind: 'reset', now: input.now });
  }
  const fresh = await newSignInAddress(tx, input);
  if (fresh) {
    const actor = await userActor(tx, input.userId);
    await recordEvent(tx, {
      companyId: fresh.companyId,
      actor,
      subject: { type: 'session', id: input.sessionId, name: actor.name },
      action: 'session.new-address',
      outcome: 'succeeded',
      detail: { address: fresh.address },
      at: input.now,
    });
  }
  return user;
}
