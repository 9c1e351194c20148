import { and, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listActivityResponse } from '../../src/api/contract/activity';
import { API_TOKEN_PATTERN, apiTokenMessages } from '../../src/api/contract/api-tokens';
import { reviveDates } from '../../src/api/revive-dates';
import { ROLE } from '../../src/api/contract/roles';
import { events } from '../../server/db/event-schema';
import { apiTokens } from '../../server/db/schema';
import { SESSION_COOKIE } from '../../server/plugins/session-cookie';
import { testClock } from './support/harness';
import { bearer } from './support/sign-in';
import { startTeamWorld, type Who } from './support/team-fixtures';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * Personal API tokens: made from a session and answered once, stored hashed, used as a bearer
 * with the user's current rights narrowed by their access, never as a session, and revoked by
 * their user or the company's Admins.
 */

const DAY_MS = 86_400_000;
const clock = testClock();
let w: VmWorld;
let mark = 0;

beforeAll(async () => {
  w = await startVmWorld({ clock });
}, 60_000);
afterAll(() => w?.close());
beforeEach(async () => {
  const [row] = await db()
    .select({ last: max(events.id) })
    .from(events);
  mark = row?.last ?? 0;
});

const db = () => w.server.database.db;
const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY_MS).toISOString();

/** Makes a token as `who` through the API (a session) and answers its secret and id. */
async function makeToken(
  who: Who,
  access: 'read' | 'readWrite' = 'readWrite',
  name = `${who}'s script`,
) {
  const res = await w.call(who, 'POST', '/apiTokens/create', {
    name,
    expiresAt: inDays(30),
    access,
  });
  expect(res.status).toBe(200);
  const { secret, token } = res.body.data as { secret: string; token: { id: number } };
  return { secret, id: token.id };
}

/** One API call with a token (or anything else) as the bearer. */
async function withToken(
  secret: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  remoteAddress = '127.0.0.1',
) {
  const res = await w.server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(secret),
    remoteAddress,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('creating a token', () => {
  it('answers the secret once, in a form secret scanners know, and keeps only its hash', async () => {
    const res = await w.call('operator', 'POST', '/apiTokens/create', {
      name: '  Billing sync ',
      expiresAt: inDays(90),
      access: 'read',
    });
    expect(res).toMatchObject({
      status: 200,
      body: {
        message: apiTokenMessages.created,
        data: {
          token: {
            name: 'Billing sync',
            access: 'read',
            user: { id: w.userIds.operator, name: 'Otto Operator', email: 'operator@a.test' },
            lastUsedAt: null,
            lastUsedFrom: null,
          },
        },
      },
    });
    const { secret, token } = res.body.data;
    expect(secret).toMatch(API_TOKEN_PATTERN);
    const [row] = await db().select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(JSON.stringify(row)).not.toContain(secret.slice(3));
    const list = await w.call('operator', 'GET', '/apiTokens/list');
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.data.map((t: { name: string }) => t.name)).toContain('Billing sync');
  });

  it.each([
    [{ name: '', expiresAt: inDays(1), access: 'read' }, 'name', apiTokenMessages.nameRequired],
    [{ name: 'x', expiresAt: 'tomorrow', access: 'read' }, 'expiresAt', 'Must be an ISO'],
    [
      { name: 'x', expiresAt: inDays(-1), access: 'read' },
      'expiresAt',
      apiTokenMessages.expiryPast,
    ],
    [{ name: 'x', expiresAt: inDays(400), access: 'read' }, 'expiresAt', 'one year at most'],
    [{ name: 'x', expiresAt: inDays(1), access: 'write' }, 'access', ''],
  ])('refuses %j naming %s', async (payload, field, message) => {
    const before = await db().select().from(apiTokens);
    const res = await w.call('viewer', 'POST', '/apiTokens/create', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
    expect(JSON.stringify(res.body)).toContain(message);
    expect(await db().select().from(apiTokens)).toEqual(before);
  });
});

describe('calling with a token', () => {
  it('acts as its user on the routes the user may call', async () => {
    const { secret } = await makeToken('viewer', 'read');
    const me = await withToken(secret, 'GET', '/users/me');
    expect(me).toMatchObject({ status: 200, body: { data: { id: w.userIds.viewer } } });
    const teams = await withToken(secret, 'GET', '/teams/list');
    expect(teams.body.data.data.map((t: { id: number }) => t.id)).toEqual([w.alphaId]);
  });

  it('only reads with a read token', async () => {
    const { secret } = await makeToken('admin', 'read');
    expect((await withToken(secret, 'GET', '/virtualMachines/list')).status).toBe(200);
    const res = await withToken(secret, 'POST', '/teams/create', { name: 'Sneaky' });
    expect(res).toEqual({ status: 403, body: { data: null, message: apiTokenMessages.readOnly } });
  });

  it("holds a read-write token to its user's role: a Viewer's cannot stop a VM", async () => {
    const vmId = await w.runningVm('tok-vm');
    const viewer = await makeToken('viewer');
    const stop = await withToken(viewer.secret, 'POST', `/virtualMachines/stop/${vmId}`);
    expect(stop.status).toBe(403);
    const operator = await makeToken('operator');
    const allowed = await withToken(operator.secret, 'POST', `/virtualMachines/stop/${vmId}`);
    expect(allowed.status).toBe(200);
    await w.server.finishOperations();
  });

  it("applies the user's current rights at once: a role change, then leaving the team", async () => {
    const vmId = await w.runningVm('rights-vm');
    const { secret } = await makeToken('manager');
    const reset = () => withToken(secret, 'POST', `/virtualMachines/reset/${vmId}`);
    expect((await reset()).status).toBe(200);
    await w.server.finishOperations();
    await w.call('admin', 'POST', '/permissions/assign', {
      teamId: w.alphaId,
      assignments: [{ userId: w.userIds.manager, roleId: ROLE.viewer }],
    });
    expect((await reset()).status).toBe(403);
    await w.call('admin', 'DELETE', '/teams/removeUser', {
      teamId: w.alphaId,
      userId: w.userIds.manager,
    });
    expect((await reset()).status).toBe(404);
  });

  it("answers 404 for another company's ids, as for ids that do not exist", async () => {
    const { secret } = await makeToken('admin');
    const res = await withToken(secret, 'GET', `/teams/${w.other.teamId}`);
    expect(res.status).toBe(404);
  });

  it('is never a session: not from a cookie, and never makes tokens or changes a password', async () => {
    const { secret } = await makeToken('operator');
    const fromCookie = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      cookies: { [SESSION_COOKIE]: secret },
    });
    expect(fromCookie.statusCode).toBe(401);
    const refused = { status: 403, body: { data: null, message: apiTokenMessages.sessionOnly } };
    expect(
      await withToken(secret, 'POST', '/apiTokens/create', {
        name: 'child',
        expiresAt: inDays(1),
        access: 'read',
      }),
    ).toEqual(refused);
    expect(
      await withToken(secret, 'POST', '/users/updatePassword', {
        currentPassword: 'x',
        password: 'Another#Password1',
      }),
    ).toEqual(refused);
    expect(await withToken(secret, 'POST', '/auth/refreshAuth')).toEqual(refused);
    expect(await withToken(secret, 'POST', '/auth/mfa', { code: '123456' })).toEqual(refused);
  });

  it('answers 401 at once for a revoked, an expired or an unknown token', async () => {
    const revoked = await makeToken('operator');
    await w.call('operator', 'DELETE', `/apiTokens/delete/${revoked.id}`);
    expect((await withToken(revoked.secret, 'GET', '/users/me')).status).toBe(401);

    const short = await w.call('operator', 'POST', '/apiTokens/create', {
      name: 'short',
      expiresAt: new Date(clock.now().getTime() + 60_000).toISOString(),
      access: 'read',
    });
    const { secret } = short.body.data;
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(200);
    clock.advance(61_000);
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(401);
    await w.signInAgain();

    const unknown = `lp_${'A'.repeat(43)}`;
    expect((await withToken(unknown, 'GET', '/users/me')).status).toBe(401);
  });

  it('notes its last use, and logs the first use from each new address', async () => {
    const { secret, id } = await makeToken('viewer', 'read', 'addresses');
    await withToken(secret, 'GET', '/users/me', undefined, '192.0.2.10');
    await withToken(secret, 'GET', '/users/me', undefined, '192.0.2.10');
    await withToken(secret, 'GET', '/users/me', undefined, '192.0.2.11');
    await withToken(secret, 'GET', '/users/me', undefined, '192.0.2.10');
    const logged = await db()
      .select({ action: events.action, detail: events.detail })
      .from(events)
      .where(
        and(gt(events.id, mark), eq(events.subjectId, id), eq(events.subjectType, 'apiToken')),
      );
    expect(logged).toEqual([
      { action: 'apiToken.create', detail: expect.objectContaining({ access: 'read' }) },
      {
        action: 'apiToken.new-address',
        detail: expect.objectContaining({ address: '192.0.2.10' }),
      },
      {
        action: 'apiToken.new-address',
        detail: expect.objectContaining({ address: '192.0.2.11' }),
      },
    ]);
    const [row] = await db().select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row).toMatchObject({ lastUsedAt: clock.now(), lastUsedFrom: '192.0.2.10' });
  });
});

describe('a token narrowed to some teams', () => {
  it('sees and acts on those teams only, and leaves the company administration alone', async () => {
    const beta = await w.call('admin', 'POST', '/teams/create', { name: 'Beta' });
    const betaId = beta.body.data.teamId as number;
    const alphaVm = await w.runningVm('alpha-vm');
    const [betaVm] = await w.createVms('admin', { name: 'beta-vm', teamId: betaId });
    const [loneVm] = await w.createVms('admin', { name: 'lone-vm', teamId: null });
    await w.server.finishOperations();

    const res = await w.call('admin', 'POST', '/apiTokens/create', {
      name: 'alpha only',
      expiresAt: inDays(30),
      access: 'readWrite',
      teamIds: [w.alphaId],
    });
    expect(res.body.data.token.teams).toEqual([{ id: w.alphaId, name: 'Alpha' }]);
    const { secret } = res.body.data;

    const teams = await withToken(secret, 'GET', '/teams/list');
    expect(teams.body.data.data.map((t: { id: number }) => t.id)).toEqual([w.alphaId]);
    expect(teams.body.data.unassignedVMs).toBe(0);
    const vms = await withToken(secret, 'GET', '/virtualMachines/list?rowsPerPage=100');
    const vmIds = vms.body.data.data.map((v: { id: number }) => v.id);
    expect(vmIds).toContain(alphaVm);
    expect(vmIds).not.toContain(betaVm);
    expect(vmIds).not.toContain(loneVm);
    expect((await withToken(secret, 'GET', `/teams/${betaId}`)).status).toBe(404);
    expect((await withToken(secret, 'POST', `/virtualMachines/stop/${betaVm}`)).status).toBe(404);
    expect((await withToken(secret, 'POST', `/virtualMachines/stop/${loneVm}`)).status).toBe(404);
    expect((await withToken(secret, 'POST', `/virtualMachines/stop/${alphaVm}`)).status).toBe(200);
    const invite = await withToken(secret, 'POST', '/users/create', {
      email: 'scoped@a.test',
      roleId: ROLE.viewer,
      teamIds: [w.alphaId],
    });
    expect(invite.status).toBe(403);
    await w.server.finishOperations();
  });

  it('names only teams its maker sees, else 404 naming teamIds', async () => {
    const notMine = await w.call('operator', 'POST', '/apiTokens/create', {
      name: 'x',
      expiresAt: inDays(1),
      access: 'read',
      teamIds: [w.other.teamId],
    });
    expect(notMine).toEqual({
      status: 404,
      body: {
        data: null,
        message: apiTokenMessages.teamNotFound,
        errors: [{ field: 'teamIds', message: apiTokenMessages.teamNotFound }],
      },
    });
    const empty = await w.call('operator', 'POST', '/apiTokens/create', {
      name: 'x',
      expiresAt: inDays(1),
      access: 'read',
      teamIds: [],
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe('teamIds');
  });
});

describe('listing and revoking', () => {
  it("shows a user their own tokens; an Admin anyone's of the company", async () => {
    const viewer = await makeToken('viewer', 'read', 'viewer-listed');
    const own = await w.call('viewer', 'GET', '/apiTokens/list');
    expect(
      own.body.data.every((t: { user: { id: number } }) => t.user.id === w.userIds.viewer),
    ).toBe(true);
    const byAdmin = await w.call('admin', 'GET', `/apiTokens/list?userId=${w.userIds.viewer}`);
    expect(byAdmin.body.data.map((t: { id: number }) => t.id)).toContain(viewer.id);
    const all = await w.call('admin', 'GET', '/apiTokens/list?all=true');
    expect(all.body.data.map((t: { id: number }) => t.id)).toContain(viewer.id);
    expect((await w.call('operator', 'GET', '/apiTokens/list?all=true')).status).toBe(403);
    expect(
      (await w.call('operator', 'GET', `/apiTokens/list?userId=${w.userIds.viewer}`)).status,
    ).toBe(403);
  });

  it('leaves an activity log the console and the CLI read, dates in details included', async () => {
    await makeToken('admin', 'read', 'logged');
    const res = await w.call('admin', 'GET', '/activity/list?rowsPerPage=100');
    // As both clients read an answer: date-like strings revived, then the shared contract.
    const parsed = listActivityResponse.safeParse(reviveDates(res.body));
    expect(parsed.error).toBeUndefined();
    const made = parsed.data?.data.data.find((event) => event.action === 'apiToken.create');
    expect(made?.detail).toMatchObject({ access: 'read', expiresAt: expect.any(Date) });
  });

  it('lets nobody but the user and an Admin revoke a token, and logs it', async () => {
    const { id, secret } = await makeToken('viewer', 'read', 'to-revoke');
    const notYours = await w.call('operator', 'DELETE', `/apiTokens/delete/${id}`);
    expect(notYours).toEqual({
      status: 404,
      body: { data: null, message: apiTokenMessages.notFound },
    });
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(200);
    const byAdmin = await w.call('admin', 'DELETE', `/apiTokens/delete/${id}`);
    expect(byAdmin).toEqual({
      status: 200,
      body: { data: null, message: apiTokenMessages.deleted },
    });
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(401);
    const [revoked] = await db()
      .select({ actorId: events.actorId, detail: events.detail })
      .from(events)
      .where(and(eq(events.action, 'apiToken.revoke'), eq(events.subjectId, id)));
    expect(revoked).toEqual({
      actorId: w.userIds.admin,
      detail: expect.objectContaining({ userId: w.userIds.viewer }),
    });
  });

  it("revokes all of a user's tokens, by the user or an Admin", async () => {
    const first = await makeToken('operator', 'read', 'one');
    const second = await makeToken('operator', 'read', 'two');
    const res = await w.call('admin', 'POST', '/apiTokens/revokeAll', {
      userId: w.userIds.operator,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.revoked).toBeGreaterThanOrEqual(2);
    for (const { secret } of [first, second]) {
      expect((await withToken(secret, 'GET', '/users/me')).status).toBe(401);
    }
    const again = await makeToken('operator', 'read', 'three');
    expect((await w.call('operator', 'POST', '/apiTokens/revokeAll', {})).body.data.revoked).toBe(
      1,
    );
    expect((await withToken(again.secret, 'GET', '/users/me')).status).toBe(401);
  });

  it("takes a deleted user's tokens with them", async () => {
    const { secret } = await makeToken('outsider', 'read');
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(200);
    await w.call('admin', 'DELETE', `/users/delete/${w.userIds.outsider}`);
    expect((await withToken(secret, 'GET', '/users/me')).status).toBe(401);
  });
});

describe('the per-token rate limit', () => {
  it('refuses a token past API_TOKEN_RATE_LIMIT a minute, and counts each token alone', async () => {
    const world = await startTeamWorld({ env: { API_TOKEN_RATE_LIMIT: '3' } });
    try {
      const make = async (name: string) => {
        const res = await world.call('viewer', 'POST', '/apiTokens/create', {
          name,
          expiresAt: new Date(world.server.clock.now().getTime() + DAY_MS).toISOString(),
          access: 'read',
        });
        return res.body.data.secret as string;
      };
      const [one, two] = [await make('one'), await make('two')];
      const me = (secret: string) =>
        world.server.app.inject({
          method: 'GET',
          url: '/api/v1/users/me',
          headers: bearer(secret),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await me(one)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await me(two)).statusCode).toBe(200);
      // A session is not counted with the tokens.
      expect((await world.call('viewer', 'GET', '/users/me')).status).toBe(200);
    } finally {
      await world.close();
    }
  });
});
