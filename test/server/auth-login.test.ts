import { createHash, createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { deriveKey } from '../../server/domain/app-keys';
import { loginFailures, sessions } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { codeIn, lastMailTo, linkIn } from './support/mail';
import { createCompany, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { logIn } from './support/sign-in';

let server: TestServer;
let companyId: number;
let alice: Awaited<ReturnType<typeof createUser>>;

const login = (payload: unknown) =>
  server.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: payload as object });

beforeAll(async () => {
  server = await startTestServer();
  const { company } = await createCompany(server.database.db, {
    name: 'Acme Ltd',
    logoUrl: 'https://cdn.example/acme.png',
    resellerName: 'Cloudy',
    resellerEmail: 'help@cloudy.example',
    resellerLogoUrl: 'https://cdn.example/cloudy.png',
    tabLogoUrl: 'https://cdn.example/tab.png',
  });
  companyId = company.id;
  alice = await createUser(server.database.db, {
    companyId,
    email: 'alice@example.com',
    firstName: 'Alice',
    lastName: 'Archer',
    isAdmin: true,
    isReseller: true,
  });
});
afterAll(() => server.close());

describe('POST /auth/login', () => {
  it('answers the user with branding, and the token in the header and an HttpOnly cookie', async () => {
    const res = await login({ email: 'alice@example.com', password: TEST_PASSWORD });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        user: {
          id: alice.id,
          firstName: 'Alice',
          lastName: 'Archer',
          email: 'alice@example.com',
          createdAt: alice.createdAt.toISOString(),
          isAdmin: true,
          isReseller: true,
          forcePasswordReset: false,
          resetKey: null,
          resellerEmail: 'help@cloudy.example',
          companyName: 'Acme Ltd',
          logoUrl: 'https://cdn.example/acme.png',
          resellerName: 'Cloudy',
          tabLogoUrl: 'https://cdn.example/tab.png',
          primaryColor: null,
          orderUrls: { newCustomer: null, accountChanges: null },
        },
        // No authenticator app, no passkey: the e-mailed code is the second step.
        secondFactor: 'email',
        passkey: false,
      },
      message: authMessages.codeSent,
    });
    const token = res.headers.authorization?.toString().replace(/^Bearer /, '');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.cookies.find((c) => c.name === 'launchpad_session');
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.maxAge).toBeUndefined();
    expect(cookie?.secure).toBeFalsy();
  });

  it('falls back to the reseller logo and the Launchpad brand', async () => {
    const { company } = await createCompany(server.database.db, {
      resellerLogoUrl: 'https://cdn.example/reseller.png',
    });
    const bob = await createUser(server.database.db, { companyId: company.id });

    const { res, token } = await logIn(server, bob.email);

    expect(res.json().data.user).toMatchObject({
      logoUrl: 'https://cdn.example/reseller.png',
      resellerName: null,
      tabLogoUrl: null,
    });
    expect(token).not.toBe('');
    expect(lastMailTo(server, bob.email).subject).toBe('Your Launchpad sign-in code');
  });

  it('e-mails a six-digit code under the reseller brand', async () => {
    await login({ email: 'alice@example.com', password: TEST_PASSWORD });

    const mail = lastMailTo(server, 'alice@example.com');
    expect(mail.subject).toBe('Your Cloudy sign-in code');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
  });

  it('stores only hashes of the token and the code', async () => {
    const { token, code } = await logIn(server, 'alice@example.com');

    const tokenHash = createHash('sha256').update(token).digest('hex');
    const [row] = await server.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, tokenHash));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.codeHash).toBe(
      createHmac('sha256', deriveKey(server.config.appSecret, 'one-time-codes'))
        .update(`${row!.id}:${code}`)
        .digest('hex'),
    );
    expect(row!.verifiedAt).toBeNull();
  });

  it('keeps a session 12 hours, or 30 days with a 30-day cookie when remembered', async () => {
    const now = server.clock.now().getTime();
    const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
    const expiryOf = async (token: string) => {
      const [row] = await server.database.db
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(eq(sessions.tokenHash, hashOf(token)));
      return row!.expiresAt.getTime() - now;
    };

    const plain = await logIn(server, 'alice@example.com');
    const remembered = await logIn(server, 'alice@example.com', { rememberMe: true });

    expect(await expiryOf(plain.token)).toBe(12 * 3600_000);
    expect(await expiryOf(remembered.token)).toBe(30 * 24 * 3600_000);
    const cookie = remembered.res.cookies.find((c) => c.name === 'launchpad_session');
    expect(cookie?.maxAge).toBe(30 * 24 * 3600);
  });

  it('accepts the address in any case', async () => {
    const res = await login({ email: '  Alice@Example.COM ', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it('gives one answer for a wrong password, an unknown address and an inactive account', async () => {
    await createUser(server.database.db, {
      companyId,
      email: 'invited@example.com',
      password: null,
    });
    const answers = await Promise.all([
      login({ email: 'alice@example.com', password: 'Wrong#Password1' }),
      login({ email: 'nobody@example.com', password: TEST_PASSWORD }),
      login({ email: 'invited@example.com', password: TEST_PASSWORD }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ data: null, message: 'Invalid email or password' });
      expect(res.headers.authorization).toBeUndefined();
      expect(res.cookies).toEqual([]);
    }
  });

  it.each([
    [{ password: TEST_PASSWORD }, 'email', 'Email is required'],
    [
      { email: 'not-an-address', password: TEST_PASSWORD },
      'email',
      'Entered value does not match email format',
    ],
    [{ email: 'alice@example.com' }, 'password', 'Password is required'],
    [{ email: 'alice@example.com', password: '' }, 'password', 'Password is required'],
    [
      { email: 'alice@example.com', password: TEST_PASSWORD, rememberMe: 'yes' },
      'rememberMe',
      expect.any(String),
    ],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: expect.stringContaining(field),
      errors: [{ field, message }],
    });
  });

  it('refuses malformed JSON naming the body', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: 'body: Malformed JSON',
      errors: [{ field: 'body', message: 'Malformed JSON' }],
    });
  });
});

describe('the per-address login throttle', () => {
  const limit = () => server.config.rateLimits.loginFailures;
  const fail = (email: string) => login({ email, password: 'Wrong#Password1' });

  it('answers 429 after too many failures, even to the right password, until the window passes', async () => {
    const carol = await createUser(server.database.db, { companyId, email: 'carol@example.com' });
    for (let i = 0; i < limit(); i += 1) expect((await fail(carol.email)).statusCode).toBe(401);

    for (const password of ['Wrong#Password1', TEST_PASSWORD]) {
      const res = await login({ email: carol.email, password });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ data: null, message: authMessages.accountThrottled });
    }

    server.clock.advance(server.config.rateLimits.loginFailureWindowMs);
    expect((await login({ email: carol.email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('throttles unknown addresses alike', async () => {
    for (let i = 0; i < limit(); i += 1) await fail('ghost@example.com');
    const res = await fail('ghost@example.com');
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(authMessages.accountThrottled);
  });

  it('forgets the failures of an address on a successful login', async () => {
    const dave = await createUser(server.database.db, { companyId, email: 'dave@example.com' });
    for (let i = 0; i < limit() - 1; i += 1) await fail(dave.email);

    expect((await login({ email: dave.email, password: TEST_PASSWORD })).statusCode).toBe(200);
    const left = await server.database.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.email, dave.email));
    expect(left).toEqual([]);

    for (let i = 0; i < limit() - 1; i += 1) await fail(dave.email);
    expect((await login({ email: dave.email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('is lifted by a password reset from the e-mailed link, as its message promises', async () => {
    const erin = await createUser(server.database.db, { companyId, email: 'erin@example.com' });
    for (let i = 0; i < limit(); i += 1) await fail(erin.email);
    expect((await login({ email: erin.email, password: TEST_PASSWORD })).statusCode).toBe(429);

    await server.app.inject({
      method: 'POST',
      url: '/api/v1/users/forgotPassword',
      payload: { email: erin.email },
    });
    await server.settled();
    const link = linkIn(lastMailTo(server, erin.email));
    const reset = await server.app.inject({
      method: 'POST',
      url: `/api/v1/users/resetPasswordFromEmail/${link.searchParams.get('token')}`,
      payload: { id: erin.id, password: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(200);

    expect((await login({ email: erin.email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});
