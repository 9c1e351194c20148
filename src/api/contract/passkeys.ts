import { z } from './zod';
import { emptyEnvelope, envelope, idSchema } from './envelope';
import { sessionData } from './auth';
import { NO_CONTROL_CHARACTERS } from './validation';

/**
 * Passkeys and security keys (WebAuthn): a user registers several, each named, from Profile →
 * Security; any of them passes the sign-in's second step instead of the e-mailed code, and a
 * passkey (a discoverable credential, verified by the device's PIN or biometrics) signs in without
 * the password. The options answers are handed to the browser's WebAuthn call as they are; its
 * answer comes back as the `credential` of the next call. Each challenge is good for one answer,
 * within PASSKEY_CHALLENGE_TTL_MS.
 */

export const PASSKEY_NAME_MAX = 64;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** How many a user may register. */
export const PASSKEYS_PER_USER = 20;

export const passkeyMessages = {
  nameRequired: 'Passkey name cannot be empty',
  nameTooLong: `Passkey name must not exceed ${PASSKEY_NAME_MAX} characters`,
  nameControlCharacters: 'Passkey name must not contain control characters',
  notFound: 'Passkey not found',
  tooMany: `You can register at most ${PASSKEYS_PER_USER} passkeys and security keys`,
  alreadyRegistered: 'This passkey or security key is already registered',
  /** The browser's answer does not match a challenge of this server that is still open. */
  challengeInvalid: 'This request has expired or was already used. Please try again.',
  /** The authenticator's answer failed verification (signature, origin, counter…). */
  verificationFailed: 'The passkey or security key could not be verified. Please try again.',
  /** No credential of the user (or, without a password, no passkey) matches the one used. */
  unknownCredential: 'This passkey or security key is not registered for your account',
  noPasskeys: 'You have no passkey or security key. Use the code from the e-mail instead.',
  /** A sign-in without a password needs the device to have checked the user (PIN, biometrics). */
  userNotVerified: 'Your device did not verify you (PIN or biometrics). Please try again.',
  /** Removing it would leave a user of a policy company without a strong second factor (409). */
  neededByPolicy:
    'Your company requires an authenticator app or a passkey: add another one before removing this one.',
  created: 'Passkey added',
  renamed: 'Passkey renamed',
  deleted: 'Passkey removed',
} as const;

const passkeyName = z
  .string({ error: passkeyMessages.nameRequired })
  .check(
    z.trim(),
    z.minLength(1, passkeyMessages.nameRequired),
    z.maxLength(PASSKEY_NAME_MAX, { error: passkeyMessages.nameTooLong, abort: true }),
    z.regex(NO_CONTROL_CHARACTERS, passkeyMessages.nameControlCharacters),
  );

/** The length check aborts first: the pattern never sees an oversized value. */
const base64url = (max: number) =>
  z
    .string()
    .check(z.maxLength(max, { abort: true }), z.regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url'));

/** `navigator.credentials.create()`'s answer as `@simplewebauthn/browser` hands it over. */
export const registrationCredential = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.string().check(z.maxLength(32))),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    authenticatorData: z.optional(base64url(8192)),
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.int()),
    publicKey: z.optional(base64url(4096)),
  }),
  clientExtensionResults: z.object({
    /** `rk`: the authenticator made a discoverable credential (a passkey). */
    credProps: z.optional(z.object({ rk: z.optional(z.boolean()) })),
  }),
});

/** `navigator.credentials.get()`'s answer as `@simplewebauthn/browser` hands it over. */
export const authenticationCredential = z.object({
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.string().check(z.maxLength(32))),
  response: z.object({
    clientDataJSON: base64url(2048),
    authenticatorData: base64url(2048),
    signature: base64url(1024),
    userHandle: z.optional(base64url(128)),
  }),
  clientExtensionResults: z.object({ appid: z.optional(z.boolean()) }),
});
export type AuthenticationCredentialJSON = z.infer<typeof authenticationCredential>;

/** WebAuthn options for the browser (PublicKeyCredentialCreation/RequestOptionsJSON). */
const webAuthnOptions = z.looseObject({ challenge: z.string() });
export const passkeyOptionsResponse = envelope(webAuthnOptions);

export const passkey = z.object({
  id: z.int(),
  name: z.string(),
  /** A passkey (discoverable credential): it can sign in without the password. */
  discoverable: z.boolean(),
  createdAt: z.date(),
  lastUsedAt: z.nullable(z.date()),
});
export type Passkey = z.infer<typeof passkey>;

export const createPasskeyBody = z.object({
  name: passkeyName,
  credential: registrationCredential,
});
export type CreatePasskeyBody = z.input<typeof createPasskeyBody>;
export const createPasskeyResponse = envelope(passkey);
export const listPasskeysResponse = envelope(z.array(passkey));
export const passkeyIdParam = z.object({ id: idSchema });
export const renamePasskeyBody = z.object({ name: passkeyName });
export const renamePasskeyResponse = envelope(passkey);
export const deletePasskeyResponse = emptyEnvelope;

/** The second step of a sign-in: the answer to `auth/passkeys/mfaOptions`. */
export const passkeyMfaBody = z.object({ credential: authenticationCredential });
export const passkeyMfaResponse = envelope(sessionData);

/** A sign-in without a password: the answer to `auth/passkeys/loginOptions`. */
export const passkeyLoginBody = z.object({
  credential: authenticationCredential,
  rememberMe: z._default(z.boolean(), false),
});
export type PasskeyLoginBody = z.input<typeof passkeyLoginBody>;
export const passkeyLoginResponse = envelope(sessionData);
