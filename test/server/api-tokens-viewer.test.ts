import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { startTestServer, type TestServer } from './support/harness';
import { isolationCases, routesWithoutCompanyIds } from './support/isolation-cases';
import { importTwoTenants, OPERATOR_TOKEN, type Tenant } from './support/isolation-tenants';
import { bearer } from './support/sign-in';
import { tableDigests } from './support/table-digests';

/**
 * A Viewer's read-write token tried on every route that changes something: it answers exactly
 * what the Viewer's own session answers (a token never has more than its user's rights), or the
 * session-only refusal, and changes nothing.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Attempt {
  endpoint: string;
  method: Method;
  url: string;
  payload?: Record<string, unknown>;
}

let server: TestServer;
let own: Tenant;
let token: string;
let fingerprint: () => Promise<Record<string, string>>;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  [own] = await importTwoTenants(server);
  const res = await call(own.tokens.viewer, {
    endpoint: 'POST /apiTokens/create',
    method: 'POST',
    url: '/apiTokens/create',
    payload: { name: 'viewer script', expiresAt: '2027-01-01T00:00:00Z', access: 'readWrite' },
  });
  expect(res.status).toBe(200);
  token = (res.body.data as { secret: string }).secret;
  // Its first use is an event of its own: made here, not inside a case.
  expect((await call(token, { endpoint: '', method: 'GET', url: '/auth/check' })).status).toBe(200);
  // Sessions move on every request (last seen); every other table must stay as it was.
  fingerprint = await tableDigests(server.database, new Set(['sessions', 'login_failures']));
}, 120_000);
afterAll(() => server?.close());

async function call(bearerValue: string, attempt: Attempt) {
  const res = await server.app.inject({
    method: attempt.method,
    url: `/api/v1${attempt.url}`,
    headers: bearer(bearerValue),
    ...(attempt.payload ? { payload: attempt.payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as { data: unknown; message: string } };
}

/** Isolation cases on a signed-in browser's own credentials and sessions: a token is refused. */
const SESSION_ONLY_CASES = new Set([
  'PUT /auth/passkeys/rename/:id',
  'DELETE /auth/passkeys/delete/:id',
  'DELETE /sessions/delete/:id',
]);

/**
 * Routes that change something, on the Viewer's own company's ids (the isolation cases' shape),
 * and the console link, a read that hands out control. Making a token, and a passkey or a
 * session's business, are session-only (below).
 */
const ownCompanyAttempts = (): Attempt[] =>
  isolationCases
    .map((c) => ({ endpoint: c.endpoint, ...c.request(own, own) }))
    .filter((a) => a.method !== 'GET' || a.endpoint === 'GET /virtualMachines/getConsole/:id')
    .filter((a) => a.endpoint !== 'POST /apiTokens/create' && !SESSION_ONLY_CASES.has(a.endpoint));

/** The routes that change something and take no other company's id. */
const companyWideAttempts = (): Attempt[] => [
  {
    endpoint: 'POST /webhooks/create',
    method: 'POST',
    url: '/webhooks/create',
    payload: { url: 'https://hooks.example.com/launchpad', events: ['*'] },
  },
  {
    endpoint: 'POST /networks/create',
    method: 'POST',
    url: '/networks/create',
    payload: { name: 'viewer-net', regionId: own.order.regionId, cidr: '10.99.0.0/24' },
  },
  {
    endpoint: 'PUT /company/secondFactorPolicy',
    method: 'PUT',
    url: '/company/secondFactorPolicy',
    payload: { requireStrongSecondFactor: true },
  },
];

/** What a token is refused whoever its user is: what makes or renews a credential, or signs in. */
const sessionOnlyAttempts = (): Attempt[] => [
  {
    endpoint: 'POST /apiTokens/create',
    method: 'POST',
    url: '/apiTokens/create',
    payload: { name: 'child', expiresAt: '2027-01-01T00:00:00Z', access: 'readWrite' },
  },
  {
    endpoint: 'POST /users/updatePassword',
    method: 'POST',
    url: '/users/updatePassword',
    payload: { currentPassword: 'x', password: 'Another#Password1' },
  },
  { endpoint: 'POST /auth/refreshAuth', method: 'POST', url: '/auth/refreshAuth' },
  { endpoint: 'POST /auth/mfa', method: 'POST', url: '/auth/mfa', payload: { code: '123456' } },
  {
    endpoint: 'POST /auth/shouldResetPassword',
    method: 'POST',
    url: '/auth/shouldResetPassword',
  },
  { endpoint: 'POST /auth/totp/enroll', method: 'POST', url: '/auth/totp/enroll' },
  {
    endpoint: 'POST /auth/totp/confirm',
    method: 'POST',
    url: '/auth/totp/confirm',
    payload: { code: '123456' },
  },
  {
    endpoint: 'POST /auth/totp/disable',
    method: 'POST',
    url: '/auth/totp/disable',
    payload: { password: 'x', code: '123456' },
  },
  {
    endpoint: 'POST /auth/passkeys/createOptions',
    method: 'POST',
    url: '/auth/passkeys/createOptions',
  },
  {
    endpoint: 'POST /auth/passkeys/create',
    method: 'POST',
    url: '/auth/passkeys/create',
    payload: { name: 'Script key', credential: { id: 'x' } },
  },
  { endpoint: 'POST /auth/passkeys/mfaOptions', method: 'POST', url: '/auth/passkeys/mfaOptions' },
  {
    endpoint: 'POST /auth/passkeys/mfa',
    method: 'POST',
    url: '/auth/passkeys/mfa',
    payload: { credential: { id: 'x' } },
  },
  { endpoint: 'POST /sessions/deleteOthers', method: 'POST', url: '/sessions/deleteOthers' },
  ...isolationCases
    .filter((c) => SESSION_ONLY_CASES.has(c.endpoint))
    .map((c) => ({ endpoint: c.endpoint, ...c.request(own, own) })),
];

describe("a Viewer's read-write token", () => {
  it('answers what the Viewer gets on every route that changes something, and changes no more', async () => {
    const outcomes = [];
    for (const attempt of [...ownCompanyAttempts(), ...companyWideAttempts()]) {
      const name = `${attempt.method} ${attempt.url}`;
      const before = await fingerprint();
      const session = await call(own.tokens.viewer, attempt);
      const withToken = await call(token, attempt);
      outcomes.push({ name, session: session.status, token: withToken.status });
      expect(withToken.body.message, name).toBe(session.body.message);
      if (session.status >= 400)
        expect(await fingerprint(), `${name} changed data`).toEqual(before);
    }
    expect(outcomes.filter((o) => o.token !== o.session)).toEqual([]);
    // All a Viewer may change here is their own name.
    expect(outcomes.filter((o) => o.session < 400).map((o) => o.name)).toEqual([
      'POST /users/edit',
    ]);
  });

  it('is refused what makes or renews a credential, or signs in', async () => {
    for (const attempt of sessionOnlyAttempts()) {
      expect(await call(token, attempt), attempt.endpoint).toEqual({
        status: 403,
        body: { data: null, message: apiTokenMessages.sessionOnly },
      });
    }
  });

  it('is tried on every route that changes something', () => {
    const public_ = new Set(
      Object.entries(routesWithoutCompanyIds)
        .filter(([, why]) => /^(public|operator token only)/.test(why))
        .map(([route]) => route),
    );
    const tried = new Set(
      [...ownCompanyAttempts(), ...companyWideAttempts(), ...sessionOnlyAttempts()].map(
        (a) => a.endpoint,
      ),
    );
    const untried = server.app.apiRoutes
      .map((route) => route.name)
      .filter((name) => !name.startsWith('GET ') && !public_.has(name) && !tried.has(name));
    // The Viewer's own: signing out, writing to support (support tests) and adding an SSH key of
    // their own (ssh-keys tests).
    expect(untried.sort()).toEqual([
      'DELETE /auth/logout',
      'POST /auth/logout',
      'POST /sshKeys/create',
      'POST /support/sendEmail',
    ]);
  });
});
