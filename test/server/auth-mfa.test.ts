import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { sessions } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, logIn, submitCode } from './support/sign-in';

let server: TestServer;
let email: string;

/** A code that is certainly not `code`. */
const otherThan = (code: string) => ((Number(code) + 1) % 1_000_000).toString().padStart(6, '0');

const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

const invalidCode = {
  data: null,
  message: 'Invalid MFA code',
  errors: [{ field: 'code', message: 'Invalid MFA code' }],
};

beforeAll(async () => {
  server = await startTestServer();
  const { company } = await createCompany(server.database.db);
  ({ email } = await createUser(server.database.db, { companyId: company.id }));
});
afterAll(() => server.close());

describe('POST /auth/mfa', () => {
  it('verifies the session with the e-mailed code', async () => {
    const { token, code } = await logIn(server, email);
    expect((await me(token)).statusCode).toBe(401);

    const res = await submitCode(server, token, code);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { user: { email, forcePasswordReset: false, resetKey: null } },
      message: 'Authenticated',
    });
    expect((await me(token)).statusCode).toBe(200);
    const [row] = await server.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, createHash('sha256').update(token).digest('hex')));
    expect(row).toMatchObject({
      codeHash: null,
      codeExpiresAt: null,
      verifiedAt: server.clock.now(),
    });
  });

  it('allows five tries, then answers Retries exhausted even to the right code', async () => {
    const { token, code } = await logIn(server, email);
    for (let i = 0; i < 5; i += 1) {
      const res = await submitCode(server, token, otherThan(code));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidCode);
    }

    const res = await submitCode(server, token, code);

    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ data: null, message: 'Retries exhausted' });
    expect((await me(token)).json().message).toBe(authMessages.verificationRequired);
  });

  it('accepts the right code on the fifth try', async () => {
    const { token, code } = await logIn(server, email);
    for (let i = 0; i < 4; i += 1) await submitCode(server, token, otherThan(code));

    expect((await submitCode(server, token, code)).statusCode).toBe(200);
  });

  it('counts guesses made at the same time one by one', async () => {
    const { token, code } = await logIn(server, email);

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => submitCode(server, token, otherThan(code))),
    );

    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
  });

  it('accepts the code for 10 minutes', async () => {
    const { token, code } = await logIn(server, email);
    server.clock.advance(10 * 60_000 - 1);

    expect((await submitCode(server, token, code)).statusCode).toBe(200);
  });

  it('refuses the right code once 10 minutes have passed', async () => {
    const { token, code } = await logIn(server, email);
    server.clock.advance(10 * 60_000);

    const res = await submitCode(server, token, code);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: 'MFA code expired',
      errors: [{ field: 'code', message: 'MFA code expired' }],
    });
  });

  it('refuses a code that was already used', async () => {
    const { token, code } = await logIn(server, email);
    await submitCode(server, token, code);

    const res = await submitCode(server, token, code);

    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.codeAlreadyUsed);
  });

  it('verifies the session once when the right code arrives twice at the same time', async () => {
    const { token, code } = await logIn(server, email);

    const answers = await Promise.all([1, 2, 3].map(() => submitCode(server, token, code)));

    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('refuses the code of another session', async () => {
    const first = await logIn(server, email);
    let second = await logIn(server, email);
    // The two codes are independent draws; make sure the test is not fooled by a coincidence.
    while (second.code === first.code) second = await logIn(server, email);

    const res = await submitCode(server, second.token, first.code);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidCode);
    expect((await submitCode(server, second.token, second.code)).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/mfa',
      payload: { code: '123456' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ data: null, message: 'Not authenticated' });
  });

  it.each([
    [{}, 'MFA code is required'],
    [{ code: '' }, 'MFA code is required'],
    [{ code: '12345' }, 'MFA code must be 6 digits'],
    [{ code: '12a456' }, 'MFA code must be 6 digits'],
  ])('refuses %j naming the code', async (payload, message) => {
    const { token } = await logIn(server, email);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/mfa',
      headers: bearer(token),
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: `code: ${message}`,
      errors: [{ field: 'code', message }],
    });
  });
});
