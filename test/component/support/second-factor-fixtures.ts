import type { SecondFactorStatus } from '../../../src/api/contract/second-factor';
import { api, http, ok, server } from './msw';

/** The caller's second factors as `GET /auth/secondFactor` answers them: none by default. */
export const aSecondFactorStatus = (
  overrides: Partial<SecondFactorStatus> = {},
): SecondFactorStatus => ({
  secondFactor: 'email',
  passkey: false,
  totpEnabledAt: null,
  recoveryCodesLeft: 0,
  companyRequires: false,
  enrolmentRequired: false,
  ...overrides,
});

/** An authenticator app turned on, with some recovery codes left. */
export const withApp = (overrides: Partial<SecondFactorStatus> = {}) =>
  aSecondFactorStatus({
    secondFactor: 'totp',
    totpEnabledAt: new Date('2026-10-01T09:00:00Z'),
    recoveryCodesLeft: 10,
    ...overrides,
  });

export const serveSecondFactorStatus = (status: SecondFactorStatus = aSecondFactorStatus()) =>
  server.use(http.get(api('auth/secondFactor'), () => ok(status)));
