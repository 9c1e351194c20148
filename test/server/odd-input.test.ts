import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from './harness';
import { createCompany, createUser } from './seed';
import { bearer, signIn } from './sign-in';

/** Inputs PostgreSQL cannot take (ids past 32 bits, NUL in text) answer 400, never 500. */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const { company } = await createCompany(server.database.db);
  const admin = await createUser(server.database.db, { companyId: company.id, isAdmin: true });
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
  it('are ignored in searches', async () => {
    const res = await call('GET', '/teams/list?search=%00');
    expect(res.status).toBe(200);
    expect((await call('GET', '/users/list?search=a%00')).status).toBe(200);
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
});
