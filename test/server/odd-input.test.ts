import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from './support/harness';
import { createCompany, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';

/** Inputs PostgreSQL cannot take (ids past 32 bits, NUL in text) answer 400, never 500. */

let server: TestServer;
let token: string;
let adminEmail: string;

beforeAll(async () => {
  server = await startTestServer();
  const { company } = await createCompany(server.database.db);
  const admin = await createUser(server.database.db, { companyId: company.id, isAdmin: true });
  adminEmail = admin.email;
  ({ token } = await signIn(server, admin.email));
});
afterAll(() => server.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  server.app
    .inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    })
    .then((res) => ({ status: res.statusCode, body: res.json() }));

describe('ids beyond a 32-bit integer', () => {
  it.each([
    ['GET', '/teams/2147483648', undefined, 'id'],
    ['GET', '/users/details/99999999999', undefined, 'id'],
    ['GET', '/users/list?excludeTeamId=2147483648', undefined, 'excludeTeamId'],
    ['DELETE', '/teams/delete', { teamId: 2147483648 }, 'teamId'],
    [
      'POST',
      '/users/create',
      { email: 'x@example.com', roleId: 4, teamIds: [2147483648] },
      'teamIds.0',
    ],
  ] as const)('%s %s answers 400 naming %s', async (method, url, payload, field) => {
    const res = await call(method, url, payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('still answers 404 for the largest id that fits', async () => {
    expect((await call('GET', '/teams/2147483647')).status).toBe(404);
  });
});

describe('NUL characters', () => {
  it('are refused in searches, naming the field', async () => {
    for (const url of [
      '/teams/list?search=%00',
      '/users/list?search=a%00',
      '/virtualMachines/list?search=%00',
      '/networks/list?search=%00',
      '/activity/list?search=%00',
    ]) {
      const res = await call('GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.errors, url).toEqual([
        { field: 'search', message: 'Must not contain a NUL character' },
      ]);
    }
  });

  it.each([
    [
      '/teams/create',
      { name: 'a\u0000b' },
      'name',
      'Team name must not contain control characters',
    ],
    [
      '/users/create',
      { email: 'a\u0000@example.com', roleId: 4 },
      'email',
      'Entered value does not match email format',
    ],
  ] as const)('are refused in %s', async (url, payload, field, message) => {
    const res = await call('POST', url, payload);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field, message }]);
  });
});

describe('OPERATOR_TOKEN', () => {
  it('must be long enough not to be guessed', () => {
    expect(() => loadConfig({ OPERATOR_TOKEN: 'short', DATA_DIR: server.outboxDir })).toThrow(
      /OPERATOR_TOKEN must be at least 32 characters/,
    );
  });

  it('stops a starting server with one line naming the variable and the rule', () => {
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, OPERATOR_TOKEN: 'x'.repeat(31), DATA_DIR: server.outboxDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr.trim()).toBe(
      'Configuration error: OPERATOR_TOKEN must be at least 32 characters',
    );
  });
});

describe('APP_SECRET', () => {
  it('must be 32 characters at least: every key of the product comes from it', () => {
    expect(() => loadConfig({ APP_SECRET: 'short', DATA_DIR: server.outboxDir })).toThrow(
      /^Configuration error: APP_SECRET must be at least 32 characters$/,
    );
    expect(loadConfig({ APP_SECRET: 'x'.repeat(32), DATA_DIR: server.outboxDir }).appSecret).toBe(
      'x'.repeat(32),
    );
  });
});

describe('a body past the 1 MB limit', () => {
  it('answers 413 with the envelope and a message', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/teams/create',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ data: null, message: 'Request body is too large' });
  });
});

describe('a JSON content type with no body', () => {
  it('counts as no body on a route that takes none (DELETE /users/delete/:id)', async () => {
    const [me] = await server.database.db.select().from(users).where(eq(users.email, adminEmail));
    const doomed = await createUser(server.database.db, { companyId: me!.companyId });
    const res = await server.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/delete/${doomed.id}`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('still refuses a body that is not JSON', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/teams/create',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
  });
});
