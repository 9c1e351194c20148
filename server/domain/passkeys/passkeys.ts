import { createHmac } from 'node:crypto';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  passkeyMessages,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEYS_PER_USER,
  type CreatePasskeyBody,
  type Passkey,
} from '../../../src/api/contract/passkeys';
import type { Db, Tx } from '../../db/client';
import { companies, users } from '../../db/schema';
import { userTotp, webauthnCredentials } from '../../db/self-service-schema';
import { badRequest, conflict, notFound } from '../../http-error';
import { deriveKey } from '../app-keys';
import { challengeOf, consumeChallenge, saveChallenge } from './challenges';
import type { RelyingParty } from './relying-party';

/**
 * The user handle a user's passkeys carry (WebAuthn's `user.id`): the same for every one of the
 * user's, so that an authenticator keeps one passkey per account, and telling nothing of the id.
 */
export const userHandleOf = (appSecret: string, userId: number): Buffer =>
  createHmac('sha256', deriveKey(appSecret, 'webauthn-user-handles'))
    .update(`user:${userId}`)
    .digest()
    .subarray(0, 16);

const passkeyColumns = {
  id: webauthnCredentials.id,
  name: webauthnCredentials.name,
  discoverable: webauthnCredentials.discoverable,
  createdAt: webauthnCredentials.createdAt,
  lastUsedAt: webauthnCredentials.lastUsedAt,
};

/** The user's passkeys and security keys, the newest first. */
export async function listPasskeys(db: Db | Tx, userId: number): Promise<Passkey[]> {
  return db
    .select(passkeyColumns)
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(desc(webauthnCredentials.createdAt), desc(webauthnCredentials.id));
}

/**
 * Options for registering one more: the user's own ones excluded (an authenticator holding one
 * says so rather than making a second), a passkey preferred (a security key without room for
 * one still works, as a second step only), and `credProps` asked so the answer tells which it is.
 */
export async function registrationOptions(
  deps: { db: Db; appSecret: string },
  input: { userId: number; sessionId: number; rp: RelyingParty; now: Date },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { db } = deps;
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, input.userId));
  const existing = await db
    .select({ id: webauthnCredentials.credentialId, transports: webauthnCredentials.transports })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, input.userId));
  if (existing.length >= PASSKEYS_PER_USER) throw conflict(passkeyMessages.tooMany);
  const options = await generateRegistrationOptions({
    rpName: input.rp.name,
    rpID: input.rp.id,
    userName: user!.email,
    userID: new Uint8Array(userHandleOf(deps.appSecret, input.userId)),
    userDisplayName: `${user!.firstName} ${user!.lastName}`.trim() || user!.email,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    extensions: { credProps: true },
  });
  await saveChallenge(db, {
    challenge: options.challenge,
    purpose: 'register',
    userId: input.userId,
    sessionId: input.sessionId,
    now: input.now,
  });
  return options;
}

/**
 * Verifies the browser's answer to this session's registration challenge (used up either way)
 * and keeps the credential under the name given.
 */
export async function registerPasskey(
  db: Db,
  input: {
    userId: number;
    sessionId: number;
    rp: RelyingParty;
    body: CreatePasskeyBody;
    now: Date;
  },
): Promise<Passkey> {
  const { credential } = input.body;
  const challenge = challengeOf(credential.response.clientDataJSON);
  const taken =
    challenge &&
    (await consumeChallenge(db, {
      challenge,
      purpose: 'register',
      sessionId: input.sessionId,
      now: input.now,
    }));
  if (!challenge || !taken || taken.userId !== input.userId) {
    throw badRequest(passkeyMessages.challengeInvalid, 'credential');
  }
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw badRequest(passkeyMessages.verificationFailed, 'credential');
  }
  if (!verification.verified) throw badRequest(passkeyMessages.verificationFailed, 'credential');
  const made = verification.registrationInfo.credential;

  return db.transaction(async (tx) => {
    const [{ value: held } = { value: 0 }] = await tx
      .select({ value: count() })
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.userId, input.userId));
    if (held >= PASSKEYS_PER_USER) throw conflict(passkeyMessages.tooMany);
    const [row] = await tx
      .insert(webauthnCredentials)
      .values({
        userId: input.userId,
        name: input.body.name,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey).toString('base64url'),
        counter: made.counter,
        transports: made.transports ?? credential.response.transports ?? [],
        discoverable: credential.clientExtensionResults.credProps?.rk === true,
        createdAt: input.now,
      })
      .onConflictDoNothing()
      .returning(passkeyColumns);
    if (!row) throw conflict(passkeyMessages.alreadyRegistered);
    return row;
  });
}

/** Renames one of the user's own; anyone else's answers 404. */
export async function renamePasskey(
  db: Db,
  input: { userId: number; id: number; name: string },
): Promise<Passkey> {
  const [row] = await db
    .update(webauthnCredentials)
    .set({ name: input.name })
    .where(and(eq(webauthnCredentials.id, input.id), eq(webauthnCredentials.userId, input.userId)))
    .returning(passkeyColumns);
  if (!row) throw notFound(passkeyMessages.notFound);
  return row;
}

/**
 * Removes one of the user's own (anyone else's answers 404), unless it is the last strong second
 * factor of a user whose company requires one (409: an authenticator app or another passkey
 * first).
 */
export async function deletePasskey(db: Db, input: { userId: number; id: number }) {
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(webauthnCredentials)
      .where(
        and(eq(webauthnCredentials.id, input.id), eq(webauthnCredentials.userId, input.userId)),
      )
      .returning({ id: webauthnCredentials.id });
    if (removed.length === 0) throw notFound(passkeyMessages.notFound);
    const [left] = await tx
      .select({
        required: companies.requireStrongSecondFactor,
        passkeys: sql<number>`(select count(*)::int from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${users.id})`,
        app: sql<boolean>`exists (select 1 from ${userTotp} where ${userTotp.userId} = ${users.id} and ${userTotp.confirmedAt} is not null)`,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.id, input.userId));
    if (left?.required && left.passkeys === 0 && !left.app) {
      throw conflict(passkeyMessages.neededByPolicy);
    }
  });
}
