import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { messages } from '../../src/api/contract/validation';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { bearer, logIn, signIn, submitCode } from './support/sign-in';

let server: TestServer;
let companyId: number;

const updatePassword = (token: string | undefined, payload: Record<string, unknown>) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/users/updatePassword',
    headers: token ? bearer(token) : {},
    payload,
  });

const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

const newUser = () => createUser(server.database.db, { companyId });

beforeAll(async () => {
  server = await startTestServer();
  ({
    company: { id: companyId },
  } = await createCompany(server.database.db));
});
afterAll(() => server.close());

describe('POST /users/updatePassword', () => {
  it('replaces the password and ends every other session', async () => {
    const user = await newUser();
    const current = await signIn(server, user.email);
    const elsewhere = await signIn(server, user.email);
    const pending = await logIn(server, user.email);

    const res = await updatePassword(current.token, {
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: authMessages.passwordUpdated });
    expect((await me(current.token)).statusCode).toBe(200);
    expect((await me(elsewhere.token)).json().message).toBe(authMessages.notAuthenticated);
    expect((await submitCode(server, pending.token, pending.code)).statusCode).toBe(401);
    await expect(logIn(server, user.email)).rejects.toThrow(/401/);
    await expect(logIn(server, user.email, { password: NEW_PASSWORD })).resolves.toBeDefined();
  });

  it('refuses a wrong current password naming it, and changes nothing', async () => {
    const user = await newUser();
    const { token } = await signIn(server, user.email);

    const res = await updatePassword(token, {
      currentPassword: 'Wrong#Password1',
      password: NEW_PASSWORD,
    });

    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: 'Current password is incorrect',
      errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
    });
    await expect(logIn(server, user.email)).resolves.toBeDefined();
  });

  it('refuses the current password as the new one, so a forced reset really replaces it', async () => {
    const user = await createUser(server.database.db, { companyId, forcePasswordReset: true });
    const { token } = await signIn(server, user.email);
    const elsewhere = await signIn(server, user.email);

    const res = await updatePassword(token, {
      currentPassword: TEST_PASSWORD,
      password: TEST_PASSWORD,
    });

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'password', message: authMessages.passwordUnchanged },
    ]);
    // Nothing changed: still forced to reset, the other session still alive.
    expect((await me(token)).json().data.forcePasswordReset).toBe(true);
    expect((await me(elsewhere.token)).statusCode).toBe(200);
  });

  it.each([
    [{ password: NEW_PASSWORD }, 'currentPassword', messages.passwordRequired],
    [{ currentPassword: TEST_PASSWORD, password: 'weak' }, 'password', messages.passwordTooShort],
    [{ currentPassword: TEST_PASSWORD }, 'password', messages.passwordRequired],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const user = await newUser();
    const { token } = await signIn(server, user.email);
    const res = await updatePassword(token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message }]);
  });

  it('needs a verified session', async () => {
    const user = await newUser();
    const { token } = await logIn(server, user.email);
    const body = { currentPassword: TEST_PASSWORD, password: NEW_PASSWORD };

    expect((await updatePassword(undefined, body)).json()).toEqual({
      data: null,
      message: authMessages.notAuthenticated,
    });
    expect((await updatePassword(token, body)).json()).toEqual({
      data: null,
      message: authMessages.verificationRequired,
    });
    await expect(logIn(server, user.email)).resolves.toBeDefined();
  });
});
