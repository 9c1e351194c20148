import { checkResponse, mfaResponse, type LoginBody } from './contract/auth';
import { loginAnswer } from './contract/second-factor';
import { emptyEnvelope } from './contract/envelope';
import { request } from './client';

export const login = (body: LoginBody) =>
  request('post', 'auth/login', loginAnswer, { json: body, suppressUnauthorized: true });

/** Checks the one-time code of the pending session. The answer's message is read by the screen. */
export const verifyCode = (code: string) =>
  request('post', 'auth/mfa', mfaResponse, { json: { code } });

export const checkAuth = () =>
  request('get', 'auth/check', checkResponse, { suppressUnauthorized: true }).then((r) => r.data);

/** The same check as any other call: a session that is gone leads to the sign-in page. */
export const recheckSession = () => request('get', 'auth/check', checkResponse).then((r) => r.data);

export const logout = () =>
  request('post', 'auth/logout', emptyEnvelope, { suppressUnauthorized: true });
