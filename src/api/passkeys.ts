import {
  createPasskeyResponse,
  deletePasskeyResponse,
  listPasskeysResponse,
  passkeyLoginResponse,
  passkeyMfaResponse,
  passkeyOptionsResponse,
  renamePasskeyResponse,
  type CreatePasskeyBody,
  type PasskeyLoginBody,
} from './contract/passkeys';
import type { z } from './contract/zod';
import { request } from './client';

/** The options the browser's WebAuthn call takes, as the server made them. */
export type WebAuthnOptions = z.infer<typeof passkeyOptionsResponse>['data'];

export const listPasskeys = () =>
  request('get', 'auth/passkeys/list', listPasskeysResponse).then((r) => r.data);

export const passkeyCreateOptions = () =>
  request('post', 'auth/passkeys/createOptions', passkeyOptionsResponse).then((r) => r.data);

export const createPasskey = (body: CreatePasskeyBody) =>
  request('post', 'auth/passkeys/create', createPasskeyResponse, { json: body });

export const renamePasskey = ({ id, name }: { id: number; name: string }) =>
  request('put', `auth/passkeys/rename/${id}`, renamePasskeyResponse, { json: { name } });

export const deletePasskey = (id: number) =>
  request('delete', `auth/passkeys/delete/${id}`, deletePasskeyResponse);

/** Options for the second step of the pending sign-in. */
export const passkeyMfaOptions = () =>
  request('post', 'auth/passkeys/mfaOptions', passkeyOptionsResponse).then((r) => r.data);

export const passkeyMfa = (credential: unknown) =>
  request('post', 'auth/passkeys/mfa', passkeyMfaResponse, { json: { credential } });

/** Options for a sign-in without the password. */
export const passkeyLoginOptions = () =>
  request('post', 'auth/passkeys/loginOptions', passkeyOptionsResponse, {
    suppressUnauthorized: true,
  }).then((r) => r.data);

export const passkeyLogin = (body: PasskeyLoginBody) =>
  request('post', 'auth/passkeys/login', passkeyLoginResponse, {
    json: body,
    suppressUnauthorized: true,
  });
