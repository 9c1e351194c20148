import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { userTokens, users } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { lastMailTo, linkIn, mailsTo } from './support/mail';
import { createCompany, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { bearer, logIn, signIn, submitCode } from './support/sign-in';

let server: TestServer;
let companyId: number;

const forgot = (email: string) =>
  server.app.inject({ method: 'POST', url: '/api/v1/users/forgotPassword', payload: { email } });

const reset = (token: string, payload: Record<string, unknown>) =>
  server.app.inject({
    method: 'POST',
    url: `/api/v1/users/resetPasswordFromEmail/${encodeURIComponent(token)}`,
    payload,
  });

const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

/** Asks for a reset link and reads it from the outbox. */
async function resetLinkFor(email: string) {
  await forgot(email);
  await server.settled();
  const link = linkIn(lastMailTo(server, email));
  return { token: link.searchParams.get('token')!, id: Number(link.searchParams.get('id')) };
}

const invalidLink = {
  data: null,
  message: authMessages.invalidResetLink,
  errors: [{ field: 'token', message: authMessages.invalidResetLink }],
};

const newUser = (options: { password?: string | null; forcePasswordReset?: boolean } = {}) =>
  createUser(server.database.db, { companyId, ...options });

beforeAll(async () => {
  server = await startTestServer();
  ({
    company: { id: companyId },
  } = await createCompany(server.database.db, {
    resellerName: 'Cloudy',
  }));
});
afterAll(() => server.close());

describe('POST /users/forgotPassword', () => {
  it('answers known and unknown addresses alike, and e-mails the known one a link', async () => {
    const known = await newUser();
    const invited = await newUser({ password: null });

    const answers = await Promise.all(
      [known.email, 'nobody@example.com', invited.email].map(forgot),
    );
    await server.settled();

    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(answers[0]!.body);
      expect(res.json()).toEqual({ data: null, message: authMessages.forgotPasswordSent });
    }
    const mail = lastMailTo(server, known.email);
    expect(mail.subject).toBe('Reset your Cloudy password');
    expect(mail.text).toMatch(
      new RegExp(`http://console\\.test/resetPassword\\?token=[A-Za-z0-9_-]{43}&id=${known.id}\\b`),
    );
    expect(mailsTo(server, 'nobody@example.com')).toEqual([]);
    expect(mailsTo(server, invited.email)).toEqual([]);
  });

  it('stores only the hash of the token', async () => {
    const user = await newUser();
    const { token } = await resetLinkFor(user.email);

    const rows = await server.database.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'reset',
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt: new Date(server.clock.now().getTime() + 3600_000),
      usedAt: null,
    });
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('leaves one live link when several are asked for at once', async () => {
    const user = await newUser();

    await Promise.all([1, 2, 3].map(() => forgot(user.email)));
    await server.settled();

    const live = await server.database.db
      .select()
      .from(userTokens)
      .where(and(eq(userTokens.userId, user.id), isNull(userTokens.usedAt)));
    expect(live).toHaveLength(1);
    expect(mailsTo(server, user.email)).toHaveLength(3);
  });

  it.each([
    [{}, 'An email address is required'],
    [{ email: '' }, 'An email address is required'],
    [{ email: 'nope' }, 'Please enter a valid email address'],
  ])('refuses %j naming the email', async (payload, message) => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/users/forgotPassword',
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`email: ${message}`);
    expect(res.json().errors[0]).toEqual({ field: 'email', message });
  });
});

describe('POST /users/resetPasswordFromEmail/:token', () => {
  it('sets the new password, stored as argon2id', async () => {
    const user = await newUser();
    const { token, id } = await resetLinkFor(user.email);

    const res = await reset(token, { id, password: NEW_PASSWORD, resetKey: token });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: null,
      message: 'Your password has been successfully reset.',
    });
    const [row] = await server.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(NEW_PASSWORD);
    await expect(logIn(server, user.email, { password: TEST_PASSWORD })).rejects.toThrow(/401/);
    await expect(logIn(server, user.email, { password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  it('signs the user out everywhere', async () => {
    const user = await newUser();
    const verified = await signIn(server, user.email);
    const pending = await logIn(server, user.email);
    const { token, id } = await resetLinkFor(user.email);

    expect((await reset(token, { id, password: NEW_PASSWORD })).statusCode).toBe(200);

    expect((await me(verified.token)).json().message).toBe(authMessages.notAuthenticated);
    expect((await submitCode(server, pending.token, pending.code)).statusCode).toBe(401);
  });

  it('works once', async () => {
    const user = await newUser();
    const { token, id } = await resetLinkFor(user.email);
    expect((await reset(token, { id, password: NEW_PASSWORD })).statusCode).toBe(200);

    const again = await reset(token, { id, password: 'Another#Password9' });

    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidLink);
    await expect(logIn(server, user.email, { password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  it('works once when used twice at the same time', async () => {
    const user = await newUser();
    const { token, id } = await resetLinkFor(user.email);

    const answers = await Promise.all(
      [NEW_PASSWORD, 'Another#Password9'].map((password) => reset(token, { id, password })),
    );

    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400]);
  });

  it('works for one hour', async () => {
    const user = await newUser();
    const first = await resetLinkFor(user.email);
    server.clock.advance(3600_000 - 1);
    expect((await reset(first.token, { id: first.id, password: NEW_PASSWORD })).statusCode).toBe(
      200,
    );

    const second = await resetLinkFor(user.email);
    server.clock.advance(3600_000);
    const res = await reset(second.token, { id: second.id, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidLink);
  });

  it('belongs to its user', async () => {
    const user = await newUser();
    const other = await newUser();
    const { token, id } = await resetLinkFor(user.email);

    expect((await reset(token, { id: other.id, password: NEW_PASSWORD })).json()).toEqual(
      invalidLink,
    );
    expect((await reset(token, { id, password: NEW_PASSWORD })).statusCode).toBe(200);
    await expect(logIn(server, other.email, { password: TEST_PASSWORD })).resolves.toBeDefined();
  });

  it('refuses a reset key that is not the token of the path', async () => {
    const user = await newUser();
    const { token, id } = await resetLinkFor(user.email);

    const res = await reset(token, { id, password: NEW_PASSWORD, resetKey: 'something-else' });

    expect(res.json()).toEqual(invalidLink);
    expect((await reset(token, { id, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('stops an older link working when a new one is sent', async () => {
    const user = await newUser();
    const older = await resetLinkFor(user.email);
    const newer = await resetLinkFor(user.email);

    expect((await reset(older.token, { id: user.id, password: NEW_PASSWORD })).json()).toEqual(
      invalidLink,
    );
    expect((await reset(newer.token, { id: user.id, password: NEW_PASSWORD })).statusCode).toBe(
      200,
    );
  });

  it('refuses a token nobody issued', async () => {
    const user = await newUser();
    expect((await reset('A'.repeat(43), { id: user.id, password: NEW_PASSWORD })).json()).toEqual(
      invalidLink,
    );
  });

  it.each([
    ['', messages.passwordRequired],
    ['Short#1a', messages.passwordTooShort],
    [`${'Aa1#'.repeat(13)}`, messages.passwordTooLong],
    ['alllowercase#123', messages.passwordWeak],
    ['No Spaces#Allowed1', messages.passwordWeak],
  ])('refuses the weak password %j naming the password', async (password, message) => {
    const user = await newUser();
    const { token, id } = await resetLinkFor(user.email);

    const res = await reset(token, { id, password });

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'password', message }]);
    expect((await reset(token, { id, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('names a missing user id', async () => {
    const res = await reset('A'.repeat(43), { password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('id');
  });
});

describe('a forced password reset', () => {
  it('hands the reset key over only after the code, and it sets the new password', async () => {
    const user = await newUser({ forcePasswordReset: true });
    const { res: login, token, code } = await logIn(server, user.email);
    expect(login.json().data.user).toMatchObject({ forcePasswordReset: true, resetKey: null });

    const verified = await submitCode(server, token, code);
    const resetKey = verified.json().data.user.resetKey as string;
    expect(verified.json().data.user.forcePasswordReset).toBe(true);
    expect(resetKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const res = await reset(resetKey, { id: user.id, password: NEW_PASSWORD, resetKey });

    expect(res.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    const again = await signIn(server, user.email, { password: NEW_PASSWORD });
    expect(again.user).toMatchObject({ forcePasswordReset: false, resetKey: null });
  });

  it('refuses data to the verified session until the password is changed', async () => {
    const user = await newUser({ forcePasswordReset: true });
    const { token } = await signIn(server, user.email);
    const get = (url: string) =>
      server.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: bearer(token) });

    const list = await get('users/list');
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ data: null, message: authMessages.passwordResetRequired });
    expect((await get('auth/check')).statusCode).toBe(200);
    expect((await get('users/me')).statusCode).toBe(200);

    const changed = await server.app.inject({
      method: 'POST',
      url: '/api/v1/users/updatePassword',
      headers: bearer(token),
      payload: { currentPassword: TEST_PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect((await get('users/list')).statusCode).toBe(200);
  });
});
