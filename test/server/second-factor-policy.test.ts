import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../server/db/event-schema';
import { companies } from '../../server/db/schema';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser, TEST_PASSWORD } from './support/seed';
import { bearer, signIn } from './support/sign-in';

let server: TestServer;

const appCode = (secret: string) =>
  generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) });
const nextStep = () => server.clock.advance(30_000 - (server.clock.now().getTime() % 30_000));

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  server.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: bearer(token),
    ...(payload ? { payload } : {}),
  });

const enrolmentRequired = {
  data: null,
  message: 'Your company requires an authenticator app or a passkey. Set one up to continue.',
};

async function enrolApp(token: string) {
  const { secret } = (await call(token, 'POST', 'auth/totp/enroll')).json().data;
  const res = await call(token, 'POST', 'auth/totp/confirm', { code: await appCode(secret) });
  expect(res.statusCode).toBe(200);
  nextStep();
  return secret as string;
}

/** A company with an Admin who has the app and has switched the policy on. */
async function policyCompany() {
  const { company } = await createCompany(server.database.db);
  const admin = await createUser(server.database.db, { companyId: company.id, isAdmin: true });
  const { token: adminToken } = await signIn(server, admin.email);
  const adminSecret = await enrolApp(adminToken);
  const res = await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
    requireStrongSecondFactor: true,
  });
  expect(res.statusCode).toBe(200);
  return { company, admin, adminToken, adminSecret };
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the company policy setting', () => {
  it('is read by any user of the company and changed only by an Admin', async () => {
    const { company } = await createCompany(server.database.db);
    const admin = await createUser(server.database.db, { companyId: company.id, isAdmin: true });
    const member = await createUser(server.database.db, { companyId: company.id });
    const { token: memberToken } = await signIn(server, member.email);
    const { token: adminToken } = await signIn(server, admin.email);

    const read = await call(memberToken, 'GET', 'company/secondFactorPolicy');
    expect(read.json()).toEqual({ data: { requireStrongSecondFactor: false }, message: 'OK' });

    const refused = await call(memberToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only your company's Admins can change the sign-in policy");

    const bad = await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('requireStrongSecondFactor');

    // Not before the Admin can follow it.
    const early = await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: true,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/for yourself before requiring/);

    await enrolApp(adminToken);
    const saved = await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: true,
    });
    expect(saved.json()).toEqual({
      data: { requireStrongSecondFactor: true },
      message: 'Sign-in policy saved',
    });
    const logged = await server.database.db
      .select({ action: events.action, detail: events.detail })
      .from(events)
      .where(eq(events.companyId, company.id));
    expect(logged).toContainEqual({
      action: 'company.second-factor-policy',
      detail: { from: 'Off', to: 'On' },
    });
  });

  it("changes only the caller's own company", async () => {
    const { company: mine } = await policyCompany();
    const { company: other } = await createCompany(server.database.db);
    const [row] = await server.database.db
      .select({ required: companies.requireStrongSecondFactor })
      .from(companies)
      .where(eq(companies.id, other.id));
    expect(row?.required).toBe(false);
    expect(mine.id).not.toBe(other.id);

    // The other company's users sign in and work as before.
    const neighbour = await createUser(server.database.db, { companyId: other.id });
    const { token } = await signIn(server, neighbour.email);
    expect((await call(token, 'GET', 'users/me')).statusCode).toBe(200);
  });
});

describe('a user of a company that requires a strong second factor', () => {
  it('is held at enrolment after the e-mailed code, and free once the app is confirmed', async () => {
    const { company } = await policyCompany();
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await signIn(server, user.email);

    const status = (await call(token, 'GET', 'auth/secondFactor')).json().data;
    expect(status).toMatchObject({ companyRequires: true, enrolmentRequired: true });
    for (const url of ['virtualMachines/list', 'teams/list', 'apiTokens/list']) {
      const res = await call(token, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual(enrolmentRequired);
    }
    // Still allowed: the session check, the policy, setting up the app.
    expect((await call(token, 'GET', 'auth/check')).statusCode).toBe(200);
    expect((await call(token, 'GET', 'company/secondFactorPolicy')).statusCode).toBe(200);

    await enrolApp(token);

    expect((await call(token, 'GET', 'virtualMachines/list')).statusCode).toBe(200);
    expect((await call(token, 'GET', 'auth/secondFactor')).json().data.enrolmentRequired).toBe(
      false,
    );
  });

  it("refuses the user's API tokens too until they have enrolled", async () => {
    const { company, adminToken } = await policyCompany();
    const user = await createUser(server.database.db, { companyId: company.id });
    // A token made before the policy was switched on.
    await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: false,
    });
    const { token } = await signIn(server, user.email);
    const created = await call(token, 'POST', 'apiTokens/create', {
      name: 'script',
      access: 'read',
      expiresAt: new Date(server.clock.now().getTime() + 30 * 86_400_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const secret = created.json().data.secret as string;
    await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: true,
    });

    const res = await call(secret, 'GET', 'virtualMachines/list');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(enrolmentRequired);
  });

  it('keeps a user with an app from turning it off while the policy holds', async () => {
    const { adminToken, adminSecret } = await policyCompany();
    const res = await call(adminToken, 'POST', 'auth/totp/disable', {
      password: TEST_PASSWORD,
      code: await appCode(adminSecret),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/add a passkey before turning the app off/);
  });

  it('lets everyone work again once the policy is switched off', async () => {
    const { company, adminToken } = await policyCompany();
    const user = await createUser(server.database.db, { companyId: company.id });
    const { token } = await signIn(server, user.email);
    expect((await call(token, 'GET', 'teams/list')).statusCode).toBe(403);
    await call(adminToken, 'PUT', 'company/secondFactorPolicy', {
      requireStrongSecondFactor: false,
    });
    expect((await call(token, 'GET', 'teams/list')).statusCode).toBe(200);
  });
});
