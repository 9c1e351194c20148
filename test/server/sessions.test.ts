import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema';
import { hashSecretToken } from '../../server/domain/identity/secret-tokens';
import { authMessages } from '../../src/api/contract/auth';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, logIn, signIn } from './support/sign-in';

let server: TestServer;
let email: string;

const get = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
const withCookie = (token: string) => ({ cookie: `launchpad_session=${token}` });
const logout = (method: 'POST' | 'DELETE', headers: Record<string, string> = {}) =>
  server.app.inject({ method, url: '/api/v1/auth/logout', headers });

const notAuthenticated = { data: null, message: 'Not authenticated' };
const verificationRequired = { data: null, message: 'MFA verification required' };

beforeAll(async () => {
  server = await startTestServer();
  const { company } = await createCompany(server.database.db, { name: 'Acme Ltd' });
  ({ email } = await createUser(server.database.db, { companyId: company.id }));
});
afterAll(() => server.close());

describe('the session of a request', () => {
  it('is read from the bearer header', async () => {
    const { token } = await signIn(server, email);
    const res = await get('/users/me', bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { email, companyName: 'Acme Ltd', resetKey: null } });
  });

  it('is read from the HttpOnly cookie', async () => {
    const { token } = await signIn(server, email);
    expect((await get('/users/me', withCookie(token))).statusCode).toBe(200);
  });

  it.each(['/users/me', '/users/list', '/auth/check'])('is required by %s', async (url) => {
    for (const headers of [
      {},
      bearer('not-a-token'),
      bearer('A'.repeat(43)),
      withCookie('B'.repeat(43)),
    ]) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(notAuthenticated);
    }
  });

  it.each(['/users/me', '/users/list', '/auth/check'])(
    'must be verified by the code for %s',
    async (url) => {
      const { token } = await logIn(server, email);
      const res = await get(url, bearer(token));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(verificationRequired);
    },
  );

  it('is each request’s own when many arrive at once', async () => {
    const { company } = await createCompany(server.database.db, { name: 'Globex' });
    const other = await createUser(server.database.db, { companyId: company.id });
    const mine = await signIn(server, email);
    const theirs = await signIn(server, other.email);
    const pending = await logIn(server, other.email);
    const ended = await signIn(server, email);
    await logout('POST', bearer(ended.token));

    const callers = [mine, theirs, pending, ended, mine, theirs];
    const answers = await Promise.all(callers.map(({ token }) => get('/users/me', bearer(token))));
    expect(
      answers.map((res) => [res.statusCode, res.json().data?.email ?? res.json().message]),
    ).toEqual([
      [200, email],
      [200, other.email],
      [401, verificationRequired.message],
      [401, notAuthenticated.message],
      [200, email],
      [200, other.email],
    ]);
  });

  it('is marked seen, coarsely, for every session of requests checked together', async () => {
    const first = await signIn(server, email);
    const second = await signIn(server, email);
    const lastSeen = async () =>
      (
        await server.database.db
          .select({ lastSeenAt: sessions.lastSeenAt })
          .from(sessions)
          .where(inArray(sessions.tokenHash, [first.token, second.token].map(hashSecretToken)))
          .orderBy(sessions.id)
      ).map((row) => row.lastSeenAt.getTime());
    const signedInAt = await lastSeen();

    server.clock.advance(60_000);
    await Promise.all([first, second, first].map(({ token }) => get('/users/list', bearer(token))));
    expect(await lastSeen()).toEqual(signedInAt);

    server.clock.advance(5 * 60_000);
    // The first check is read alone (nothing was being read); the two sessions, together, next.
    const seen = await Promise.all(
      [bearer('A'.repeat(43)), bearer(first.token), bearer(second.token)].map((headers) =>
        get('/users/list', headers),
      ),
    );
    expect(seen.map((res) => res.statusCode)).toEqual([401, 200, 200]);
    expect(await lastSeen()).toEqual([server.clock.now().getTime(), server.clock.now().getTime()]);
  });

  it('ends after 12 hours', async () => {
    const { token } = await signIn(server, email);
    server.clock.advance(12 * 3600_000 - 1);
    expect((await get('/users/me', bearer(token))).statusCode).toBe(200);
    server.clock.advance(1);
    expect((await get('/users/me', bearer(token))).json()).toEqual(notAuthenticated);
  });

  it('ends after 30 days when remembered', async () => {
    const { token } = await signIn(server, email, { rememberMe: true });
    server.clock.advance(30 * 24 * 3600_000 - 1);
    expect((await get('/users/me', bearer(token))).statusCode).toBe(200);
    server.clock.advance(1);
    expect((await get('/users/me', bearer(token))).json()).toEqual(notAuthenticated);
  });
});

describe('GET /auth/check', () => {
  it('answers the user of a verified session', async () => {
    const { token, user } = await signIn(server, email);
    const res = await get('/auth/check', bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { user }, message: authMessages.authenticated });
  });
});

describe('logout', () => {
  it.each(['POST', 'DELETE'] as const)(
    '%s revokes the session for the header and the cookie alike',
    async (method) => {
      const { token } = await signIn(server, email);
      const other = await signIn(server, email);

      const res = await logout(method, bearer(token));

      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: null, message: 'Logged out' });
      const cleared = res.cookies.find((c) => c.name === 'launchpad_session');
      expect(cleared).toMatchObject({ value: '', path: '/', httpOnly: true });
      expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
      expect((await get('/users/me', bearer(token))).json()).toEqual(notAuthenticated);
      expect((await get('/users/me', withCookie(token))).json()).toEqual(notAuthenticated);
      expect((await get('/users/me', bearer(other.token))).statusCode).toBe(200);
    },
  );

  it.each(['POST', 'DELETE'] as const)('%s revokes a session sent as a cookie', async (method) => {
    const { token } = await signIn(server, email);
    const fromConsole = { ...withCookie(token), origin: server.config.publicOrigin };
    expect((await logout(method, fromConsole)).statusCode).toBe(200);
    expect((await get('/users/me', bearer(token))).json()).toEqual(notAuthenticated);
  });

  it('ends a session still waiting for its code', async () => {
    const { token, code } = await logIn(server, email);
    await logout('POST', bearer(token));
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/mfa',
      headers: bearer(token),
      payload: { code },
    });
    expect(res.json()).toEqual(notAuthenticated);
  });

  it('answers the same without a session', async () => {
    const res = await logout('POST');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'Logged out' });
  });
});
