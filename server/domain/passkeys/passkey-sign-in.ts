import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { and, eq, isNull } from 'drizzle-orm';
import type { User } from '../../../src/api/contract/auth';
import {
  passkeyMessages,
  PASSKEY_CHALLENGE_TTL_MS,
  type AuthenticationCredentialJSON,
} from '../../../src/api/contract/passkeys';
import type { Db, Tx } from '../../db/client';
import { companies, resellers, sessions, users } from '../../db/schema';
import { webauthnCredentials } from '../../db/self-service-schema';
import { badRequest, unauthorized } from '../../http-error';
import { insertSession } from '../identity/sessions';
import { finishSignIn } from '../identity/sign-in';
import { challengeOf, consumeChallenge, saveChallenge, type ChallengePurpose } from './challenges';
import { userHandleOf } from './passkeys';
import type { RelyingParty } from './relying-party';

const refused = (message: string) => badRequest(message, 'credential');

/**
 * Options for the second step of a pending sign-in: any of the user's passkeys and security keys.
 * A user without one is told to use the e-mailed code (400).
 */
export async function secondStepOptions(
  db: Db,
  input: { userId: number; sessionId: number; rp: RelyingParty; now: Date },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed = await db
    .select({ id: webauthnCredentials.credentialId, transports: webauthnCredentials.transports })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, input.userId));
  if (allowed.length === 0) throw badRequest(passkeyMessages.noPasskeys);
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    allowCredentials: allowed,
    userVerification: 'preferred',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await saveChallenge(db, {
    challenge: options.challenge,
    purpose: 'second-step',
    userId: input.userId,
    sessionId: input.sessionId,
    now: input.now,
  });
  return options;
}

/** Options for a sign-in without the password: the browser offers the passkeys it holds here. */
export async function loginOptions(
  db: Db,
  input: { rp: RelyingParty; now: Date },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: input.rp.id,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  await saveChallenge(db, { challenge: options.challenge, purpose: 'sign-in', now: input.now });
  return options;
}

/**
 * The challenge the answer signed, taken out for good before anything else is checked, so that
 * an answer can be tried once whatever comes of it.
 */
async function takeChallenge(
  db: Db,
  credential: AuthenticationCredentialJSON,
  input: { purpose: ChallengePurpose; sessionId?: number; now: Date },
) {
  const challenge = challengeOf(credential.response.clientDataJSON);
  const taken = challenge && (await consumeChallenge(db, { challenge, ...input }));
  if (!challenge || !taken) throw refused(passkeyMessages.challengeInvalid);
  return { challenge, userId: taken.userId };
}

interface StoredCredential {
  id: number;
  userId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * Checks the authenticator's signature over the challenge, the origin and RP ID, and its counter
 * (a counter that does not move forward betrays a cloned authenticator), then keeps the new
 * counter and the time of use. Two answers of the same credential at once: one of them wins.
 */
async function verifyAssertion(
  tx: Tx,
  stored: StoredCredential,
  input: {
    credential: AuthenticationCredentialJSON;
    challenge: string;
    rp: RelyingParty;
    requireUserVerification: boolean;
    now: Date;
  },
) {
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: input.credential as AuthenticationResponseJSON,
      expectedChallenge: input.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: stored.transports,
      },
      requireUserVerification: input.requireUserVerification,
    });
  } catch (error) {
    if (/user could not be verified/i.test(String(error))) {
      throw refused(passkeyMessages.userNotVerified);
    }
    throw refused(passkeyMessages.verificationFailed);
  }
  if (!result.verified) throw refused(passkeyMessages.verificationFailed);
  const [kept] = await tx
    .update(webauthnCredentials)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: input.now })
    .where(
      and(eq(webauthnCredentials.id, stored.id), eq(webauthnCredentials.counter, stored.counter)),
    )
    .returning({ id: webauthnCredentials.id });
  if (!kept) throw refused(passkeyMessages.verificationFailed);
}

const credentialColumns = {
  id: webauthnCredentials.id,
  userId: webauthnCredentials.userId,
  credentialId: webauthnCredentials.credentialId,
  publicKey: webauthnCredentials.publicKey,
  counter: webauthnCredentials.counter,
  transports: webauthnCredentials.transports,
};

/** Marks the session signed in by a passkey: no code is asked of it any more. */
async function verifySession(tx: Tx, sessionId: number, now: Date) {
  const [row] = await tx
    .update(sessions)
    .set({ verifiedAt: now, codeHash: null, codeExpiresAt: null, secondFactor: 'passkey' })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.verifiedAt)))
    .returning({ id: sessions.id });
  return row !== undefined;
}

/**
 * The second step of a pending sign-in passed with one of the user's passkeys or security keys,
 * answering this session's challenge: the session is signed in, as by the e-mailed code.
 */
export async function verifySecondStep(
  db: Db,
  input: {
    sessionId: number;
    userId: number;
    rp: RelyingParty;
    credential: AuthenticationCredentialJSON;
    now: Date;
  },
): Promise<User> {
  const { challenge, userId } = await takeChallenge(db, input.credential, {
    purpose: 'second-step',
    sessionId: input.sessionId,
    now: input.now,
  });
  if (userId !== input.userId) throw refused(passkeyMessages.challengeInvalid);
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .select(credentialColumns)
      .from(webauthnCredentials)
      .where(
        and(
          eq(webauthnCredentials.credentialId, input.credential.id),
          eq(webauthnCredentials.userId, input.userId),
        ),
      );
    if (!stored) throw refused(passkeyMessages.unknownCredential);
    await verifyAssertion(tx, stored, {
      credential: input.credential,
      challenge,
      rp: input.rp,
      requireUserVerification: false,
      now: input.now,
    });
    if (!(await verifySession(tx, input.sessionId, input.now))) {
      throw refused(passkeyMessages.challengeInvalid);
    }
    return finishSignIn(tx, { sessionId: input.sessionId, userId: input.userId, now: input.now });
  });
}

export type PasskeyLoginResult =
  | { outcome: 'signed-in'; token: string; user: User }
  /** The passkey is right, but the company is suspended: who to contact (no session is made). */
  | { outcome: 'suspended'; supportEmail: string };

/**
 * A sign-in without the password: a passkey (a discoverable credential) the device verified its
 * user for (PIN, biometrics), answering a sign-in challenge. It stands for both the password and
 * the second step: the new session is signed in at once.
 */
export async function loginWithPasskey(
  deps: { db: Db; appSecret: string },
  input: {
    rp: RelyingParty;
    credential: AuthenticationCredentialJSON;
    rememberMe: boolean;
    address: string;
    userAgent: string | null;
    now: Date;
  },
): Promise<PasskeyLoginResult> {
  const { db } = deps;
  const { challenge } = await takeChallenge(db, input.credential, {
    purpose: 'sign-in',
    now: input.now,
  });
  const [stored] = await db
    .select({
      ...credentialColumns,
      activatedAt: users.activatedAt,
      suspendedAt: companies.suspendedAt,
      resellerEmail: resellers.email,
    })
    .from(webauthnCredentials)
    .innerJoin(users, eq(users.id, webauthnCredentials.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .innerJoin(resellers, eq(resellers.id, companies.resellerId))
    .where(
      and(
        eq(webauthnCredentials.credentialId, input.credential.id),
        eq(webauthnCredentials.discoverable, true),
      ),
    );
  if (!stored || !stored.activatedAt) throw unauthorized(passkeyMessages.unknownCredential);
  // The account the authenticator names must be the credential's (when it names one).
  const handle = input.credential.response.userHandle;
  if (handle && handle !== userHandleOf(deps.appSecret, stored.userId).toString('base64url')) {
    throw unauthorized(passkeyMessages.unknownCredential);
  }
  return db.transaction(async (tx): Promise<PasskeyLoginResult> => {
    await verifyAssertion(tx, stored, {
      credential: input.credential,
      challenge,
      rp: input.rp,
      requireUserVerification: true,
      now: input.now,
    });
    if (stored.suspendedAt) return { outcome: 'suspended', supportEmail: stored.resellerEmail };
    const session = await insertSession(tx, {
      userId: stored.userId,
      rememberMe: input.rememberMe,
      address: input.address,
      userAgent: input.userAgent,
      now: input.now,
    });
    await verifySession(tx, session.sessionId, input.now);
    const user = await finishSignIn(tx, {
      sessionId: session.sessionId,
      userId: stored.userId,
      now: input.now,
    });
    return { outcome: 'signed-in', token: session.token, user };
  });
}
