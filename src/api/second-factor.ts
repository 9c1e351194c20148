import { emptyEnvelope } from './contract/envelope';
import {
  secondFactorPolicyResponse,
  secondFactorStatusResponse,
  totpConfirmResponse,
  totpEnrollResponse,
  type SecondFactorPolicy,
} from './contract/second-factor';
import { request } from './client';

/** The caller's second factors; a session still waiting for its second step may ask too. */
export const fetchSecondFactorStatus = () =>
  request('get', 'auth/secondFactor', secondFactorStatusResponse).then((r) => r.data);

/** A new pending secret for the authenticator app (replaces one not confirmed yet). */
export const enrollTotp = () =>
  request('post', 'auth/totp/enroll', totpEnrollResponse).then((r) => r.data);

/** The app's first code: answers the ten recovery codes, this once. */
export const confirmTotp = (code: string) =>
  request('post', 'auth/totp/confirm', totpConfirmResponse, { json: { code } }).then((r) => r.data);

export const disableTotp = (body: { password: string; code: string }) =>
  request('post', 'auth/totp/disable', emptyEnvelope, { json: body });

export const fetchSecondFactorPolicy = () =>
  request('get', 'company/secondFactorPolicy', secondFactorPolicyResponse).then((r) => r.data);

export const saveSecondFactorPolicy = (body: SecondFactorPolicy) =>
  request('put', 'company/secondFactorPolicy', secondFactorPolicyResponse, { json: body });
