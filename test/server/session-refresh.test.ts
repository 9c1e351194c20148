import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, logIn, signIn } from './support/sign-in';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
let server: TestServer;
let companyId: number;

beforeAll(async () => {
  server = await startTestServer();
  ({
    company: { id: companyId },
  } = await createCompany(server.database.db, { name: 'Acme Ltd', resellerName: 'Cloudy' }));
});
afterAll(() => server.close());

const post = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'POST', url: `/api/v1${url}`, headers });
const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
const newUser = (options: { forcePasswordReset?: boolean } = {}) =>
  createUser(server.database.db, { companyId, ...options });

describe('POST /auth/refreshAuth', () => {
  it('starts the 12 hours of a session over and answers the user', async () => {
    const user = await newUser();
    const { token } = await signIn(server, user.email);
    server.clock.advance(11 * HOUR);

    const res = await post('/auth/refreshAuth', bearer(token));

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: {
        user: { id: user.id, email: user.email, companyName: 'Acme Ltd', resellerName: 'Cloudy' },
        expiresAt: new Date(server.clock.now().getTime() + 12 * HOUR).toISOString(),
      },
      message: authMessages.sessionRenewed,
    });
    expect(res.headers.authorization).toBe(`Bearer ${token}`);
    // Past the first 12 hours, the session lives on...
    server.clock.advance(11 * HOUR);
    expect((await me(token)).statusCode).toBe(200);
    // ...until 12 hours after the renewal.
    server.clock.advance(HOUR);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('gives a remembered session 30 more days and a cookie that lasts as long', async () => {
    const user = await newUser();
    const { token } = await signIn(server, user.email, { rememberMe: true });
    server.clock.advance(20 * DAY);

    const res = await post('/auth/refreshAuth', {
      cookie: `launchpad_session=${token}`,
      origin: server.config.publicOrigin,
    });

    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'launchpad_session');
    expect(cookie).toMatchObject({ value: token, httpOnly: true, maxAge: 30 * 24 * 3600 });
    server.clock.advance(29 * DAY);
    expect((await me(token)).statusCode).toBe(200);
  });

  it('never keeps a session past 90 days after its sign-in', async () => {
    const user = await newUser();
    const { token } = await signIn(server, user.email, { rememberMe: true });
    for (let day = 25; day <= 75; day += 25) {
      server.clock.advance(25 * DAY);
      expect((await post('/auth/refreshAuth', bearer(token))).statusCode).toBe(200);
    }
    const last = await post('/auth/refreshAuth', bearer(token));
    expect(last.json().data.expiresAt).toBe(
      new Date(server.clock.now().getTime() + 15 * DAY).toISOString(),
    );
    server.clock.advance(15 * DAY);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('answers 401 without a verified session, renewing nothing', async () => {
    const user = await newUser();
    const pending = await logIn(server, user.email);

    expect((await post('/auth/refreshAuth')).json()).toEqual({
      data: null,
      message: authMessages.notAuthenticated,
    });
    const unverified = await post('/auth/refreshAuth', bearer(pending.token));
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json().message).toBe(authMessages.verificationRequired);

    const { token } = await signIn(server, user.email);
    await post('/auth/logout', bearer(token));
    expect((await post('/auth/refreshAuth', bearer(token))).statusCode).toBe(401);
  });
});

describe('POST /auth/shouldResetPassword', () => {
  it('answers false for a user with a password of their own', async () => {
    const user = await newUser();
    const { token } = await signIn(server, user.email);
    const res = await post('/auth/shouldResetPassword', bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { shouldReset: false }, message: 'OK' });
  });

  it('answers true for a user who must reset, before and after the code check', async () => {
    const user = await newUser({ forcePasswordReset: true });
    const pending = await logIn(server, user.email);
    expect((await post('/auth/shouldResetPassword', bearer(pending.token))).json().data).toEqual({
      shouldReset: true,
    });
    const { token } = await signIn(server, user.email);
    // Everything else is refused until the reset; this question is not.
    expect((await me(token)).statusCode).toBe(200);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: '/api/v1/teams/list',
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(403);
    expect((await post('/auth/shouldResetPassword', bearer(token))).json().data).toEqual({
      shouldReset: true,
    });
  });

  it('answers 401 without a session', async () => {
    const res = await post('/auth/shouldResetPassword', bearer('A'.repeat(43)));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ data: null, message: authMessages.notAuthenticated });
  });
});
