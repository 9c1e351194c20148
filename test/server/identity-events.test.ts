import { asc, desc, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { events } from '../../server/db/event-schema';
import { companies, distributors, resellers, sessions, users } from '../../server/db/schema';
import { testClock } from './support/harness';
import { codeIn, lastMailTo, linkIn } from './support/mail';
import { createUser, NEW_PASSWORD, TEST_PASSWORD } from './support/seed';
import { bearer } from './support/sign-in';
import { startTeamWorld, type TeamWorld } from './support/team-fixtures';

/**
 * The people writes in the event log: invitations, activations, deletions, teams, memberships and
 * sign-ins from new addresses. Each change logs its events in its own transaction; a refused one
 * logs nothing.
 */

const OPERATOR_TOKEN = 'identity-events-operator-token-0123456789';
const clock = testClock();
let w: TeamWorld;
/** The last event before the test: each test reads only what it caused. */
let mark = 0;

beforeAll(async () => {
  w = await startTeamWorld({ clock, env: { OPERATOR_TOKEN } });
}, 60_000);
afterAll(() => w?.close());
beforeEach(async () => {
  const [row] = await w.server.database.db.select({ last: max(events.id) }).from(events);
  mark = row?.last ?? 0;
  // Every change happens at its own moment, so that `at` is seen to be the change's clock time.
  clock.advance(60_000);
});

const db = () => w.server.database.db;

/** The events logged since the test began, oldest first, without the ids the log gives. */
async function logged() {
  const rows = await db().select().from(events).where(gt(events.id, mark)).orderBy(asc(events.id));
  return rows.map(({ id: _id, seq: _seq, ...row }) => row);
}

const ada = () => ({ actorType: 'user', actorId: w.userIds.admin, actorName: 'Ada Admin' });
const alpha = () => ({ subjectType: 'team', subjectId: w.alphaId, subjectName: 'Alpha' });

/** What every event of these writes has in common. */
const base = () => ({
  companyId: w.companyId,
  occurredAt: clock.now(),
  outcome: 'succeeded',
  networkId: null,
  operationId: null,
});

describe('users', () => {
  it('logs an invitation, and the memberships it creates in the teams', async () => {
    const res = await w.call('admin', 'POST', '/users/create', {
      email: 'newbie@a.test',
      roleId: ROLE.operator,
      teamIds: [w.alphaId],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const userId = res.body.data.id as number;

    expect(await logged()).toEqual([
      {
        ...base(),
        ...ada(),
        subjectType: 'user',
        subjectId: userId,
        subjectName: 'newbie@a.test',
        action: 'user.invite',
        teamId: null,
        detail: { email: 'newbie@a.test', role: 'Operator' },
      },
      {
        ...base(),
        ...ada(),
        ...alpha(),
        action: 'team.member.add',
        teamId: w.alphaId,
        detail: { userId, userName: 'newbie@a.test', role: 'Operator' },
      },
    ]);
    await w.server.settled();
  });

  it('logs nothing for a refused invitation', async () => {
    const refused = [
      await w.call('manager', 'POST', '/users/create', { email: 'x1@a.test', roleId: 4 }),
      await w.call('admin', 'POST', '/users/create', {
        email: 'x2@a.test',
        roleId: 4,
        teamIds: [w.other.teamId],
      }),
      await w.call('admin', 'POST', '/users/create', { email: 'viewer@a.test', roleId: 4 }),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 404, 409]);
    expect(await logged()).toEqual([]);
  });

  it('logs the activation by the user who activates', async () => {
    const invited = await w.call('admin', 'POST', '/users/create', {
      email: 'erin@a.test',
      roleId: ROLE.viewer,
    });
    const userId = invited.body.data.id as number;
    await w.server.settled();
    const link = linkIn(lastMailTo(w.server, 'erin@a.test'));
    const token = link.searchParams.get('token')!;
    const confirm = (payload: object) =>
      w.server.app.inject({
        method: 'POST',
        url: `/api/v1/users/confirmEmail/${encodeURIComponent(token)}`,
        payload,
      });
    const details = { password: NEW_PASSWORD, firstName: 'Erin', lastName: 'Evans' };
    clock.advance(1000);
    mark = await lastEventId();

    expect((await confirm({ id: w.userIds.viewer, ...details })).statusCode).toBe(400);
    expect(await logged()).toEqual([]);

    expect((await confirm({ id: userId, ...details })).statusCode).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        actorType: 'user',
        actorId: userId,
        actorName: 'Erin Evans',
        subjectType: 'user',
        subjectId: userId,
        subjectName: 'Erin Evans',
        action: 'user.activate',
        teamId: null,
        detail: { email: 'erin@a.test' },
      },
    ]);

    // The link is spent: a second try is refused and logs nothing.
    mark = await lastEventId();
    expect((await confirm({ id: userId, ...details })).statusCode).toBe(400);
    expect(await logged()).toEqual([]);
  });

  it('logs a deletion, and the memberships that went with the user', async () => {
    const gone = await createUser(db(), {
      companyId: w.companyId,
      email: 'gone@a.test',
      firstName: 'Gus',
      lastName: 'Gone',
    });
    expect(
      (await w.call('admin', 'POST', '/teams/addUser', { teamId: w.alphaId, userId: gone.id }))
        .status,
    ).toBe(200);
    mark = await lastEventId();

    expect((await w.call('admin', 'DELETE', `/users/delete/${gone.id}`)).status).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        ...ada(),
        subjectType: 'user',
        subjectId: gone.id,
        subjectName: 'Gus Gone',
        action: 'user.delete',
        teamId: null,
        detail: { email: 'gone@a.test' },
      },
      {
        ...base(),
        ...ada(),
        ...alpha(),
        action: 'team.member.remove',
        teamId: w.alphaId,
        detail: { userId: gone.id, userName: 'Gus Gone', role: 'Viewer' },
      },
    ]);
  });

  it('logs nothing for a refused deletion', async () => {
    const refused = [
      await w.call('manager', 'DELETE', `/users/delete/${w.userIds.viewer}`),
      await w.call('admin', 'DELETE', `/users/delete/${w.userIds.admin}`),
      await w.call('admin', 'DELETE', `/users/delete/${w.other.userId}`),
      await w.call('admin', 'DELETE', '/users/delete/999999'),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 403, 404, 404]);
    expect(await logged()).toEqual([]);
  });
});

describe('teams', () => {
  it('logs a team created, renamed and deleted, under its name of the moment', async () => {
    const created = await w.call('admin', 'POST', '/teams/create', { name: 'Gamma' });
    expect(created.status).toBe(200);
    const teamId = created.body.data.teamId as number;
    const gamma = { subjectType: 'team', subjectId: teamId, teamId, detail: {} };
    expect(await logged()).toEqual([
      { ...base(), ...ada(), ...gamma, subjectName: 'Gamma', action: 'team.create' },
    ]);

    clock.advance(1000);
    mark = await lastEventId();
    expect((await w.call('admin', 'POST', '/teams/update', { teamId, name: 'Delta' })).status).toBe(
      200,
    );
    expect(await logged()).toEqual([
      {
        ...base(),
        ...ada(),
        ...gamma,
        subjectName: 'Delta',
        action: 'team.rename',
        detail: { from: 'Gamma', to: 'Delta' },
      },
    ]);

    // The same name again changes nothing, so there is nothing to log.
    mark = await lastEventId();
    expect((await w.call('admin', 'POST', '/teams/update', { teamId, name: 'Delta' })).status).toBe(
      200,
    );
    expect(await logged()).toEqual([]);

    clock.advance(1000);
    expect((await w.call('admin', 'DELETE', '/teams/delete', { teamId })).status).toBe(200);
    expect(await logged()).toEqual([
      { ...base(), ...ada(), ...gamma, subjectName: 'Delta', action: 'team.delete' },
    ]);
  });

  it('logs a rename by a Manager with the Manager as the actor', async () => {
    expect(
      (await w.call('manager', 'POST', '/teams/update', { teamId: w.alphaId, name: 'Alpha One' }))
        .status,
    ).toBe(200);
    await w.call('admin', 'POST', '/teams/update', { teamId: w.alphaId, name: 'Alpha' });
    const [renamed] = await logged();
    expect(renamed).toMatchObject({
      actorType: 'user',
      actorId: w.userIds.manager,
      actorName: 'Mia Manager',
      subjectName: 'Alpha One',
      action: 'team.rename',
      detail: { from: 'Alpha', to: 'Alpha One' },
    });
  });

  it('logs nothing for a refused team change', async () => {
    const refused = [
      await w.call('manager', 'POST', '/teams/create', { name: 'Nope' }),
      await w.call('admin', 'POST', '/teams/create', { name: 'Alpha' }),
      await w.call('admin', 'POST', '/teams/create', { name: 'Nope', parentTeamId: 999999 }),
      await w.call('viewer', 'POST', '/teams/update', { teamId: w.alphaId, name: 'Nope' }),
      await w.call('outsider', 'POST', '/teams/update', { teamId: w.alphaId, name: 'Nope' }),
      await w.call('admin', 'POST', '/teams/update', { teamId: w.other.teamId, name: 'Nope' }),
      await w.call('manager', 'DELETE', '/teams/delete', { teamId: w.alphaId }),
      await w.call('admin', 'DELETE', '/teams/delete', { teamId: w.other.teamId }),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 409, 404, 403, 404, 404, 403, 404]);
    expect(await logged()).toEqual([]);
  });
});

describe('team members', () => {
  it('logs a member added, their role changed and their removal', async () => {
    const outsider = {
      userId: w.userIds.outsider,
      userName: 'Olga Outsider',
    };
    const mia = { actorType: 'user', actorId: w.userIds.manager, actorName: 'Mia Manager' };
    const added = await w.call('manager', 'POST', '/teams/addUser', {
      teamId: w.alphaId,
      userId: w.userIds.outsider,
      roleId: ROLE.operator,
    });
    expect(added.status).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        ...mia,
        ...alpha(),
        action: 'team.member.add',
        teamId: w.alphaId,
        detail: { ...outsider, role: 'Operator' },
      },
    ]);

    clock.advance(1000);
    mark = await lastEventId();
    const changed = await w.call('manager', 'POST', '/roles/updateUserRoleForTeam', {
      teamId: w.alphaId,
      userId: w.userIds.outsider,
      roleId: ROLE.manager,
    });
    expect(changed.status).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        ...mia,
        ...alpha(),
        action: 'team.member.role',
        teamId: w.alphaId,
        detail: { ...outsider, from: 'Operator', to: 'Manager' },
      },
    ]);

    // Several at once: only the members whose role changes are logged.
    clock.advance(1000);
    mark = await lastEventId();
    const assigned = await w.call('admin', 'POST', '/permissions/assign', {
      teamId: w.alphaId,
      assignments: [
        { userId: w.userIds.outsider, roleId: ROLE.manager },
        { userId: w.userIds.viewer, roleId: ROLE.operator },
      ],
    });
    expect(assigned.status).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        ...ada(),
        ...alpha(),
        action: 'team.member.role',
        teamId: w.alphaId,
        detail: {
          userId: w.userIds.viewer,
          userName: 'Vera Viewer',
          from: 'Viewer',
          to: 'Operator',
        },
      },
    ]);
    await w.call('admin', 'POST', '/permissions/assign', {
      teamId: w.alphaId,
      assignments: [{ userId: w.userIds.viewer, roleId: ROLE.viewer }],
    });

    clock.advance(1000);
    mark = await lastEventId();
    const removed = await w.call('admin', 'DELETE', '/teams/removeUser', {
      teamId: w.alphaId,
      userId: w.userIds.outsider,
    });
    expect(removed.status).toBe(200);
    expect(await logged()).toEqual([
      {
        ...base(),
        ...ada(),
        ...alpha(),
        action: 'team.member.remove',
        teamId: w.alphaId,
        detail: { ...outsider, role: 'Manager' },
      },
    ]);
  });

  it('logs nothing for a refused membership change', async () => {
    const { alphaId, userIds, other } = w;
    const refused = [
      await w.call('operator', 'POST', '/teams/addUser', {
        teamId: alphaId,
        userId: userIds.outsider,
      }),
      await w.call('admin', 'POST', '/teams/addUser', { teamId: alphaId, userId: userIds.viewer }),
      await w.call('admin', 'POST', '/teams/addUser', { teamId: alphaId, userId: other.userId }),
      await w.call('viewer', 'DELETE', '/teams/removeUser', {
        teamId: alphaId,
        userId: userIds.operator,
      }),
      await w.call('admin', 'DELETE', '/teams/removeUser', {
        teamId: alphaId,
        userId: userIds.outsider,
      }),
      await w.call('operator', 'POST', '/roles/updateUserRoleForTeam', {
        teamId: alphaId,
        userId: userIds.viewer,
        roleId: ROLE.manager,
      }),
      await w.call('admin', 'POST', '/permissions/assign', {
        teamId: alphaId,
        assignments: [
          { userId: userIds.viewer, roleId: ROLE.manager },
          { userId: userIds.outsider, roleId: ROLE.manager },
        ],
      }),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 409, 404, 403, 404, 403, 404]);
    expect(await logged()).toEqual([]);
  });
});

describe('sign-ins', () => {
  const login = (email: string, remoteAddress: string) =>
    w.server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress,
      payload: { email, password: TEST_PASSWORD },
    });
  const submit = (token: string, code: string, remoteAddress: string) =>
    w.server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/mfa',
      remoteAddress,
      headers: bearer(token),
      payload: { code },
    });
  /** Password then code from one address; the session's id. */
  async function signInFrom(email: string, address: string) {
    const res = await login(email, address);
    expect(res.statusCode).toBe(200);
    const token = res.headers.authorization!.toString().replace(/^Bearer /, '');
    const verified = await submit(token, codeIn(lastMailTo(w.server, email)), address);
    expect(verified.statusCode).toBe(200);
    return latestSessionOf(email);
  }
  async function latestSessionOf(email: string) {
    const [row] = await db()
      .select({ id: sessions.id, address: sessions.ipAddress })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, email))
      .orderBy(desc(sessions.id))
      .limit(1);
    return row!;
  }

  it('keeps the address of each session', async () => {
    await login('viewer@a.test', '192.0.2.77');
    expect((await latestSessionOf('viewer@a.test')).address).toBe('192.0.2.77');
  });

  it('logs a completed sign-in from an address the user never signed in from', async () => {
    const session = await signInFrom('operator@a.test', '198.51.100.7');
    const operator = {
      actorType: 'user',
      actorId: w.userIds.operator,
      actorName: 'Otto Operator',
    };
    expect(await logged()).toEqual([
      {
        ...base(),
        ...operator,
        subjectType: 'session',
        subjectId: session.id,
        subjectName: 'Otto Operator',
        action: 'session.new-address',
        teamId: null,
        detail: { address: '198.51.100.7' },
      },
    ]);

    // From there again: known now.
    mark = await lastEventId();
    await signInFrom('operator@a.test', '198.51.100.7');
    expect(await logged()).toEqual([]);
  });

  it('logs nothing until the code has been given, nor for a wrong code', async () => {
    const res = await login('operator@a.test', '203.0.113.9');
    const token = res.headers.authorization!.toString().replace(/^Bearer /, '');
    const code = codeIn(lastMailTo(w.server, 'operator@a.test'));
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await submit(token, wrong, '203.0.113.9')).statusCode).toBe(400);
    expect(await logged()).toEqual([]);

    expect((await submit(token, code, '203.0.113.9')).statusCode).toBe(200);
    expect(await logged()).toMatchObject([
      {
        action: 'session.new-address',
        actorId: w.userIds.operator,
        detail: { address: '203.0.113.9' },
      },
    ]);
  });

  it('logs an address that only an unverified session had as new', async () => {
    await login('manager@a.test', '192.0.2.200');
    await signInFrom('manager@a.test', '192.0.2.200');
    expect((await logged()).map((event) => event.action)).toEqual(['session.new-address']);
  });
});

describe('imports', () => {
  const postImport = (kind: string, items: unknown[]) =>
    w.server.app.inject({
      method: 'POST',
      url: `/api/v1/imports/${kind}`,
      headers: bearer(OPERATOR_TOKEN),
      payload: { items },
    });
  const operator = { actorType: 'operator', actorId: null, actorName: 'Operator' };
  const invite = { action: 'user.invite', subjectType: 'user', teamId: null };
  const userIdOf = async (email: string) =>
    (await db().select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

  it('logs each company and Admin an import creates, by the Operator, and nothing else', async () => {
    const [world] = await db()
      .select({ reseller: resellers.externalId, distributor: distributors.externalId })
      .from(companies)
      .innerJoin(resellers, eq(resellers.id, companies.resellerId))
      .innerJoin(distributors, eq(distributors.id, resellers.distributorId))
      .where(eq(companies.id, w.companyId));
    const company = (externalId: string, email: string) => ({
      externalId,
      resellerExternalId: world!.reseller,
      name: `Imported ${externalId}`,
      admin: { email, firstName: 'Ina', lastName: 'Import' },
    });

    const bad = await postImport('company', [company('imp-bad', 'viewer@a.test')]);
    expect(bad.statusCode).toBe(400);
    expect(await logged()).toEqual([]);

    const res = await postImport('company', [
      company('imp-one', 'one@imp.test'),
      company('imp-two', 'two@imp.test'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    await w.server.settled();
    const [one, two] = res.json().data.items as { id: number }[];
    // Each new company first (`company.create`, by company), then its Admin's invitation.
    const created = [
      [one!.id, 'imp-one'],
      [two!.id, 'imp-two'],
    ] as const;
    expect(await logged()).toEqual([
      ...created.map(([companyId, externalId]) => ({
        ...base(),
        ...operator,
        companyId,
        action: 'company.create',
        subjectType: 'company',
        subjectId: companyId,
        subjectName: `Imported ${externalId}`,
        teamId: null,
        detail: { source: 'import' },
      })),
      ...[
        [one!.id, 'one@imp.test'],
        [two!.id, 'two@imp.test'],
      ].map(([companyId, email]) => ({
        ...base(),
        ...operator,
        ...invite,
        companyId,
        subjectName: 'Ina Import',
        subjectId: expect.any(Number),
        detail: { email, role: 'Admin' },
      })),
    ]);
    expect(
      (await logged()).filter((event) => event.action === 'user.invite').map((e) => e.subjectId),
    ).toEqual([await userIdOf('one@imp.test'), await userIdOf('two@imp.test')]);

    // A reseller's staff Admin has no names: the address stands in.
    mark = await lastEventId();
    const reseller = await postImport('reseller', [
      {
        externalId: 'imp-res',
        distributerExternalId: world!.distributor,
        name: 'Imported reseller',
        email: 'staff@imp.test',
      },
    ]);
    expect(reseller.statusCode, reseller.body).toBe(200);
    await w.server.settled();
    expect(await logged()).toEqual([
      {
        ...base(),
        ...operator,
        ...invite,
        companyId: expect.any(Number),
        subjectId: await userIdOf('staff@imp.test'),
        subjectName: 'staff@imp.test',
        detail: { email: 'staff@imp.test', role: 'Admin' },
      },
    ]);

    // The same file again creates nobody.
    mark = await lastEventId();
    const again = await postImport('company', [company('imp-two', 'two@imp.test')]);
    expect(again.statusCode).toBe(200);
    expect(await logged()).toEqual([]);
  });
});

async function lastEventId() {
  const [row] = await db()
    .select({ last: max(events.id) })
    .from(events);
  return row?.last ?? 0;
}
