import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, userTotp } from '../../server/db/self-service-schema';
import { events } from '../../server/db/event-schema';
import { sessions } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { mailsTo } from './support/mail';
import { createCompany, createUser, TEST_PASSWORD } from './support/seed';
import { bearer, logIn, signIn, submitCode } from './support/sign-in';

let server: TestServer;

/** The app's code at the server's clock (`offsetS` seconds away), as a phone would show it. */
const appCode = (secret: string, offsetS = 0) =>
  generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) + offsetS });

/** Moves the clock to the start of the next 30-second step: a new code. */
const nextStep = () => {
  const ms = server.clock.now().getTime();
  server.clock.advance(30_000 - (ms % 30_000));
};

const post = (token: string, url: string, payload?: object) =>
  server.app.inject({
    method: 'POST',
    url: `/api/v1/${url}`,
    headers: bearer(token),
    ...(payload ? { payload } : {}),
  });
const get = (token: string, url: string) =>
  server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: bearer(token) });

/** Logs in without following the second step: the pending session's token and the answer. */
async function passwordOnly(email: string) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: TEST_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const token = res.headers.authorization?.toString().replace(/^Bearer /, '') ?? '';
  return { token, body: res.json() };
}

/** A user of a new company who has enrolled and confirmed the app. */
async function enrolledUser(options: { isAdmin?: boolean; companyId?: number } = {}) {
  const companyId = options.companyId ?? (await createCompany(server.database.db)).company.id;
  const user = await createUser(server.database.db, { companyId, isAdmin: options.isAdmin });
  const { token } = await signIn(server, user.email);
  const enrol = await post(token, 'auth/totp/enroll');
  const { secret } = enrol.json().data as { secret: string };
  const confirm = await post(token, 'auth/totp/confirm', { code: await appCode(secret) });
  expect(confirm.statusCode).toBe(200);
  nextStep();
  return {
    user,
    secret,
    token,
    companyId,
    recoveryCodes: confirm.json().data.recoveryCodes as string[],
  };
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('enrolling an authenticator app', () => {
  it('answers a secret and its otpauth:// URI, then ten recovery codes for a first code', async () => {
    const { company } = await createCompany(server.database.db, { resellerName: 'Acme Cloud' });
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await signIn(server, user.email);

    const enrol = await post(token, 'auth/totp/enroll');
    expect(enrol.statusCode).toBe(200);
    const { secret, otpauthUri } = enrol.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Acme Cloud:${user.email}`);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Acme Cloud');

    // Sealed at rest, not confirmed yet: the sign-in still e-mails its code.
    const [row] = await server.database.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.userId, user.id));
    expect(row?.secretSealed).not.toContain(secret);
    expect(row?.confirmedAt).toBeNull();
    expect((await passwordOnly(user.email)).body.data.secondFactor).toBe('email');

    const wrong = await post(token, 'auth/totp/confirm', {
      code: String((Number(await appCode(secret)) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ field: 'code', message: expect.any(String) }]);

    const confirm = await post(token, 'auth/totp/confirm', { code: await appCode(secret) });
    expect(confirm.statusCode).toBe(200);
    const codes = confirm.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    // Stored hashed only.
    const stored = await server.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
    }

    const status = await get(token, 'auth/secondFactor');
    expect(status.json().data).toMatchObject({
      secondFactor: 'totp',
      passkey: false,
      recoveryCodesLeft: 10,
      companyRequires: false,
      enrolmentRequired: false,
    });
    const logged = await server.database.db
      .select({ action: events.action, subjectType: events.subjectType })
      .from(events)
      .where(eq(events.companyId, company.id));
    expect(logged).toContainEqual({ action: 'authenticator.enable', subjectType: 'user' });
  });

  it('replaces a pending secret when asked again, and refuses a second app (409)', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await signIn(server, user.email);
    const first = (await post(token, 'auth/totp/enroll')).json().data.secret;
    const second = (await post(token, 'auth/totp/enroll')).json().data.secret;
    expect(second).not.toBe(first);

    // Only the newest secret confirms.
    const stale = await post(token, 'auth/totp/confirm', { code: await appCode(first) });
    expect(stale.statusCode).toBe(400);
    expect(
      (await post(token, 'auth/totp/confirm', { code: await appCode(second) })).statusCode,
    ).toBe(200);

    const again = await post(token, 'auth/totp/enroll');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already set up/);
    expect(
      (await post(token, 'auth/totp/confirm', { code: await appCode(second) })).statusCode,
    ).toBe(409);
  });

  it('confirms nothing without a pending secret, and names a malformed code', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await signIn(server, user.email);
    expect((await post(token, 'auth/totp/confirm', { code: '123456' })).statusCode).toBe(409);
    const bad = await post(token, 'auth/totp/confirm', { code: '12ab' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('code');
  });

  it('needs a verified session: a pending one and no session are refused', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await passwordOnly(user.email);
    expect((await post(token, 'auth/totp/enroll')).statusCode).toBe(401);
    expect(
      (await server.app.inject({ method: 'POST', url: '/api/v1/auth/totp/enroll' })).statusCode,
    ).toBe(401);
  });
});

describe('signing in with the app', () => {
  it('asks for the app at login, sends no e-mail, and takes the app code', async () => {
    const { user, secret } = await enrolledUser();
    const before = mailsTo(server, user.email).length;

    const { token, body } = await passwordOnly(user.email);
    expect(body.data).toMatchObject({ secondFactor: 'totp', passkey: false });
    expect(body.message).toBe('Enter the code from your authenticator app');
    expect(mailsTo(server, user.email)).toHaveLength(before);
    expect((await get(token, 'auth/secondFactor')).json().data.secondFactor).toBe('totp');

    const res = await submitCode(server, token, await appCode(secret));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Authenticated', data: { user: { id: user.id } } });
    expect((await get(token, 'users/me')).statusCode).toBe(200);
    expect(await factorOf(token)).toBe('totp');
  });

  it('accepts the code of the step before or after, not two steps away', async () => {
    const { user, secret } = await enrolledUser();
    const { token } = await passwordOnly(user.email);
    expect((await submitCode(server, token, await appCode(secret, -60))).statusCode).toBe(400);
    expect((await submitCode(server, token, await appCode(secret, 30))).statusCode).toBe(200);
  });

  it('refuses a code used once already in its window', async () => {
    const { user, secret } = await enrolledUser();
    const code = await appCode(secret);
    const first = await passwordOnly(user.email);
    expect((await submitCode(server, first.token, code)).statusCode).toBe(200);

    const second = await passwordOnly(user.email);
    const replay = await submitCode(server, second.token, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      data: null,
      message: 'This code has already been used. Wait for the next code in your app.',
      errors: [{ field: 'code', message: expect.any(String) }],
    });
    // The code of the step before is older still.
    expect((await submitCode(server, second.token, await appCode(secret, -30))).statusCode).toBe(
      400,
    );
    nextStep();
    expect((await submitCode(server, second.token, await appCode(secret))).statusCode).toBe(200);
  });

  it('allows five tries, then answers Retries exhausted even to the right code', async () => {
    const { user, secret } = await enrolledUser();
    const { token } = await passwordOnly(user.email);
    const right = await appCode(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) {
      const res = await submitCode(server, token, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid MFA code');
    }
    const res = await submitCode(server, token, right);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ data: null, message: 'Retries exhausted' });
  });

  it('expires the pending sign-in after ten minutes like the e-mailed code', async () => {
    const { user, secret } = await enrolledUser();
    const { token } = await passwordOnly(user.email);
    server.clock.advance(10 * 60_000 + 1);
    const res = await submitCode(server, token, await appCode(secret));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('MFA code expired');
  });

  it('takes a recovery code once, whatever its case or dash', async () => {
    const { user, recoveryCodes: codes } = await enrolledUser();
    const [code] = codes as [string];

    const first = await passwordOnly(user.email);
    const res = await submitCode(server, first.token, code.toUpperCase().replace('-', ''));
    expect(res.statusCode).toBe(200);
    expect(await factorOf(first.token)).toBe('recovery');

    const second = await passwordOnly(user.email);
    const again = await submitCode(server, second.token, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid MFA code');
    expect((await get(first.token, 'auth/secondFactor')).json().data.recoveryCodesLeft).toBe(9);
  });

  it('keeps the e-mailed code for everyone without an app, and no recovery code passes', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id });
    const { res, token, code } = await logIn(server, user.email);
    expect(res.json().data).toMatchObject({ secondFactor: 'email', passkey: false });
    expect(res.json().message).toBe('A sign-in code has been sent to your email');
    expect((await submitCode(server, token, 'abcde-fghij')).statusCode).toBe(400);
    expect((await submitCode(server, token, code)).statusCode).toBe(200);
  });

  it("leaves another company's users alone", async () => {
    const { companyId } = await enrolledUser();
    const { company: other } = await createCompany(server.database.db);
    const neighbour = await createUser(server.database.db, { companyId: other.id });
    const colleague = await createUser(server.database.db, { companyId });
    for (const email of [neighbour.email, colleague.email]) {
      const { res, token, code } = await logIn(server, email);
      expect(res.json().data.secondFactor).toBe('email');
      expect((await submitCode(server, token, code)).statusCode).toBe(200);
    }
  });
});

describe('turning the app off', () => {
  it('needs both the password and a code, each named when wrong', async () => {
    const { user, secret, token } = await enrolledUser();

    const wrongPassword = await post(token, 'auth/totp/disable', {
      password: 'Not-the-password1',
      code: await appCode(secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().errors).toEqual([
      { field: 'password', message: 'Current password is incorrect' },
    ]);

    const wrongCode = await post(token, 'auth/totp/disable', {
      password: TEST_PASSWORD,
      code: String((Number(await appCode(secret)) + 500_000) % 1_000_000).padStart(6, '0'),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().errors).toEqual([{ field: 'code', message: 'Invalid MFA code' }]);

    const missing = await post(token, 'auth/totp/disable', { code: '123456' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('password');

    const ok = await post(token, 'auth/totp/disable', {
      password: TEST_PASSWORD,
      code: await appCode(secret),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Authenticator app turned off');

    // Back to the e-mailed code; the recovery codes are gone.
    const { res } = await logIn(server, user.email);
    expect(res.json().data.secondFactor).toBe('email');
    const left = await server.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.id));
    expect(left).toHaveLength(0);
    expect(
      (await post(token, 'auth/totp/disable', { password: TEST_PASSWORD, code: '123456' }))
        .statusCode,
    ).toBe(409);
  });

  it('takes a recovery code instead of the app', async () => {
    const { recoveryCodes: codes, token } = await enrolledUser();
    const res = await post(token, 'auth/totp/disable', {
      password: TEST_PASSWORD,
      code: codes[3],
    });
    expect(res.statusCode).toBe(200);
  });
});

/** How the session of `token` passed its second step. */
async function factorOf(token: string) {
  const [session] = await server.database.db
    .select({ secondFactor: sessions.secondFactor })
    .from(sessions)
    .where(eq(sessions.tokenHash, createHash('sha256').update(token).digest('hex')));
  return session?.secondFactor;
}
