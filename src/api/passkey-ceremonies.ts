import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { User } from './contract/auth';
import {
  createPasskey,
  passkeyCreateOptions,
  passkeyLogin,
  passkeyLoginOptions,
  passkeyMfa,
  passkeyMfaOptions,
} from './passkeys';
import { sessionStore } from './session-store';

/**
 * The browser's side of passkeys (`@simplewebauthn/browser`): the server's options handed to the
 * browser's WebAuthn call, and its answer back to the server. Loaded only when a passkey button
 * is pressed: the sign-in page's first download carries none of it.
 */

/** What the browser said, in the words the console uses; anything else keeps its own message. */
function ceremonyError(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  const code = error instanceof WebAuthnError ? error.code : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return new Error('This passkey or security key is already registered for your account.');
  }
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError' || name === 'AbortError') {
    return new Error('The passkey request was cancelled or timed out. Please try again.');
  }
  if (
    name === 'SecurityError' ||
    code === 'ERROR_INVALID_DOMAIN' ||
    code === 'ERROR_INVALID_RP_ID'
  ) {
    return new Error('Passkeys cannot be used at this address.');
  }
  if (name === 'NotSupportedError') {
    return new Error('This browser or device cannot use passkeys or security keys.');
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function ask<T>(ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony();
  } catch (error) {
    throw ceremonyError(error);
  }
}

/** Registers a passkey or security key of this device under `name`. */
export async function registerPasskey(name: string) {
  const options = await passkeyCreateOptions();
  const credential = await ask(() =>
    startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    }),
  );
  return createPasskey({ name, credential });
}

/** The pending sign-in's second step passed with one of the user's passkeys: the signed-in user. */
export async function passkeySecondStep(): Promise<User> {
  const options = await passkeyMfaOptions();
  const credential = await ask(() =>
    startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    }),
  );
  return (await passkeyMfa(credential)).data.user;
}

/**
 * Signs in with a passkey, without the password: the new session is kept as a login keeps it
 * (Remember me decides where), and is signed in already.
 */
export async function passkeySignIn(rememberMe: boolean): Promise<User> {
  const options = await passkeyLoginOptions();
  const credential = await ask(() =>
    startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    }),
  );
  sessionStore.clear();
  sessionStore.setRememberMe(rememberMe);
  try {
    const { user } = (await passkeyLogin({ credential, rememberMe })).data;
    sessionStore.save({
      user,
      rememberMe,
      lastAuthed: new Date().toISOString(),
      needsReset: user.forcePasswordReset,
      resetKey: user.resetKey,
    });
    return user;
  } catch (error) {
    sessionStore.clear();
    throw error;
  }
}
