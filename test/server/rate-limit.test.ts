import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { bearer, logIn, signIn } from './support/sign-in';

const LIMIT = 3;
let server: TestServer;
let pendingToken: string;
let verifiedToken: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT: String(LIMIT) });
  const { company } = await createCompany(server.database.db);
  const user = await createUser(server.database.db, { companyId: company.id });
  // Signing in spends one login and one code check from 127.0.0.1; the tests use other addresses.
  ({ token: verifiedToken } = await signIn(server, user.email));
  ({ token: pendingToken } = await logIn(server, user.email));
});
afterAll(() => server.close());

type Call = { method: 'POST' | 'DELETE'; url: string; payload?: object; token?: () => string };
const calls: [string, Call][] = [
  [
    'login',
    {
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'x@example.com', password: TEST_PASSWORD },
    },
  ],
  [
    'code check',
    { method: 'POST', url: '/auth/mfa', payload: { code: '000000' }, token: () => pendingToken },
  ],
  ['logout', { method: 'POST', url: '/auth/logout' }],
  ['logout (DELETE)', { method: 'DELETE', url: '/auth/logout' }],
  [
    'forgot password',
    { method: 'POST', url: '/users/forgotPassword', payload: { email: 'x@example.com' } },
  ],
  [
    'reset password',
    {
      method: 'POST',
      url: `/users/resetPasswordFromEmail/${'A'.repeat(43)}`,
      payload: { id: 1, password: NEW_PASSWORD },
    },
  ],
  [
    'confirm email',
    {
      method: 'POST',
      url: `/users/confirmEmail/${'A'.repeat(43)}`,
      payload: { id: 1, password: NEW_PASSWORD, firstName: 'A', lastName: 'B' },
    },
  ],
  ['register', { method: 'POST', url: '/users/register', payload: { email: 'x@example.com' } }],
  [
    'update password',
    {
      method: 'POST',
      url: '/users/updatePassword',
      payload: { currentPassword: 'Wrong#Password1', password: NEW_PASSWORD },
      token: () => verifiedToken,
    },
  ],
];

describe('the per-address limit of the auth routes', () => {
  it.each(calls)('answers %s with 429 past the limit', async (_name, call) => {
    const send = (remoteAddress: string) =>
      server.app.inject({
        method: call.method,
        url: `/api/v1${call.url}`,
        remoteAddress,
        headers: call.token ? bearer(call.token()) : {},
        ...(call.payload ? { payload: call.payload } : {}),
      });
    const address = `10.0.0.${calls.findIndex(([, c]) => c === call) + 10}`;

    for (let i = 0; i < LIMIT; i += 1) expect((await send(address)).statusCode).not.toBe(429);
    const limited = await send(address);

    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ data: null, message: authMessages.tooManyRequests });
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await send('10.0.1.1')).statusCode).not.toBe(429);
  });
});
