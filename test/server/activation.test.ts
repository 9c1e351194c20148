import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { users } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { lastMailTo, linkIn, mailsTo } from './support/mail';
import { createCompany, createUser, NEW_PASSWORD } from './support/seed';
import { signIn } from './support/sign-in';

let server: TestServer;
let companyId: number;

const register = (email: string) =>
  server.app.inject({ method: 'POST', url: '/api/v1/users/register', payload: { email } });

const confirm = (token: string, payload: Record<string, unknown>) =>
  server.app.inject({
    method: 'POST',
    url: `/api/v1/users/confirmEmail/${encodeURIComponent(token)}`,
    payload,
  });

const details = { password: NEW_PASSWORD, firstName: 'Erin', lastName: 'Evans' };

const invited = () => createUser(server.database.db, { companyId, password: null });

/** Asks for a new activation link and reads it from the outbox. */
async function activationLinkFor(email: string) {
  await register(email);
  await server.settled();
  const link = linkIn(lastMailTo(server, email));
  return { token: link.searchParams.get('token')!, id: Number(link.searchParams.get('id')) };
}

const invalidLink = {
  data: null,
  message: authMessages.invalidResetLink,
  errors: [{ field: 'token', message: authMessages.invalidResetLink }],
};

beforeAll(async () => {
  server = await startTestServer();
  ({
    company: { id: companyId },
  } = await createCompany(server.database.db, {
    resellerName: 'Cloudy',
  }));
});
afterAll(() => server.close());

describe('POST /users/register (send a new activation link)', () => {
  it('e-mails a link to an account waiting for activation, and answers everyone alike', async () => {
    const waiting = await invited();
    const active = await createUser(server.database.db, { companyId });

    const answers = await Promise.all(
      [waiting.email, active.email, 'nobody@example.com'].map(register),
    );
    await server.settled();

    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: null, message: authMessages.activationLinkSent });
    }
    const mail = lastMailTo(server, waiting.email);
    expect(mail.subject).toBe('Activate your Cloudy account');
    expect(mail.text).toMatch(
      new RegExp(
        `http://console\\.test/confirmNewUser\\?token=[A-Za-z0-9_-]{43}&id=${waiting.id}\\b`,
      ),
    );
    expect(mailsTo(server, active.email)).toEqual([]);
    expect(mailsTo(server, 'nobody@example.com')).toEqual([]);
  });

  it('names an invalid address', async () => {
    const res = await register('not-an-address');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'email', message: 'Entered value does not match email format' },
    ]);
  });
});

describe('POST /users/confirmEmail/:token', () => {
  it('activates the account with a name and a password', async () => {
    const user = await invited();
    const { token, id } = await activationLinkFor(user.email);

    const res = await confirm(token, { id, resetKey: token, ...details });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'Account activated' });
    const [row] = await server.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      firstName: 'Erin',
      lastName: 'Evans',
      activatedAt: server.clock.now(),
    });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const session = await signIn(server, user.email, { password: NEW_PASSWORD });
    expect(session.user).toMatchObject({ firstName: 'Erin', lastName: 'Evans' });
  });

  it('works once, even when the link is opened twice at the same time', async () => {
    const user = await invited();
    const { token, id } = await activationLinkFor(user.email);

    const answers = await Promise.all([1, 2].map(() => confirm(token, { id, ...details })));

    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400]);
    expect((await confirm(token, { id, ...details })).json()).toEqual(invalidLink);
  });

  it('works for seven days', async () => {
    const user = await invited();
    const first = await activationLinkFor(user.email);
    server.clock.advance(7 * 24 * 3600_000);

    expect((await confirm(first.token, { id: first.id, ...details })).json()).toEqual(invalidLink);

    const second = await activationLinkFor(user.email);
    server.clock.advance(7 * 24 * 3600_000 - 1);
    expect((await confirm(second.token, { id: second.id, ...details })).statusCode).toBe(200);
  });

  it('stops an older link working when a new one is sent', async () => {
    const user = await invited();
    const older = await activationLinkFor(user.email);
    const newer = await activationLinkFor(user.email);

    expect((await confirm(older.token, { id: user.id, ...details })).json()).toEqual(invalidLink);
    expect((await confirm(newer.token, { id: user.id, ...details })).statusCode).toBe(200);
  });

  it('belongs to its user and is not a password reset link', async () => {
    const user = await invited();
    const other = await invited();
    const { token, id } = await activationLinkFor(user.email);

    expect((await confirm(token, { id: other.id, ...details })).json()).toEqual(invalidLink);
    const asReset = await server.app.inject({
      method: 'POST',
      url: `/api/v1/users/resetPasswordFromEmail/${token}`,
      payload: { id, password: NEW_PASSWORD },
    });
    expect(asReset.json()).toEqual(invalidLink);
    expect((await confirm(token, { id, ...details })).statusCode).toBe(200);
  });

  it('refuses a reset key that is not the token of the path', async () => {
    const user = await invited();
    const { token, id } = await activationLinkFor(user.email);

    expect((await confirm(token, { id, resetKey: 'other', ...details })).json()).toEqual(
      invalidLink,
    );
  });

  it.each([
    [{ firstName: '  ' }, 'firstName', 'First Name is Required'],
    [{ lastName: undefined }, 'lastName', 'Last Name is Required'],
    [{ password: 'weak' }, 'password', 'Password must be at least 12 characters long'],
  ])('refuses %j naming the field', async (change, field, message) => {
    const res = await confirm('A'.repeat(43), { id: 1, ...details, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message }]);
  });
});
