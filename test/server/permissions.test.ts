import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { addTeamMember, createUser } from './support/seed';
import {
  FORBIDDEN,
  NOT_FOUND,
  NOT_MEMBER,
  startTeamWorld,
  type TeamWorld,
  type Who,
} from './support/team-fixtures';

/** GET /permissions/list/:id and POST /permissions/assign. */

let world: TeamWorld;
/** An Admin user whose Alpha membership holds the fixed Admin role. */
let adminMemberId: number;

beforeAll(async () => {
  world = await startTeamWorld();
  const db = world.server.database.db;
  const admin = await createUser(db, {
    companyId: world.companyId,
    email: 'boss@a.test',
    firstName: 'Bea',
    lastName: 'Boss',
    isAdmin: true,
  });
  adminMemberId = admin.id;
  await addTeamMember(db, { teamId: world.alphaId, userId: admin.id, roleId: ROLE.admin });
});
afterAll(() => world.close());

const everything = [
  'team.view',
  'team.rename',
  'team.members',
  'vm.view',
  'vm.create',
  'vm.operate',
  'vm.edit',
  'vm.resize',
  'vm.delete',
  'vm.move',
];

/** The answer to a refused call, and proof that it changed nothing. */
async function refused(who: Who, payload: object) {
  const before = await world.state();
  const res = await world.call(who, 'POST', '/permissions/assign', payload);
  expect(await world.state()).toBe(before);
  return res;
}

describe('GET /permissions/list/:id', () => {
  it('answers every member by name with the role and what it grants', async () => {
    const { alphaId, userIds } = world;
    const res = await world.call('viewer', 'GET', `/permissions/list/${alphaId}`);

    expect(res).toEqual({
      status: 200,
      body: {
        data: {
          teamId: alphaId,
          entries: [
            {
              userId: adminMemberId,
              name: 'Bea Boss',
              email: 'boss@a.test',
              roleId: ROLE.admin,
              permissions: everything,
            },
            {
              userId: userIds.manager,
              name: 'Mia Manager',
              email: 'manager@a.test',
              roleId: ROLE.manager,
              permissions: everything,
            },
            {
              userId: userIds.operator,
              name: 'Otto Operator',
              email: 'operator@a.test',
              roleId: ROLE.operator,
              permissions: ['team.view', 'vm.view', 'vm.create', 'vm.operate', 'vm.edit'],
            },
            {
              userId: userIds.viewer,
              name: 'Vera Viewer',
              email: 'viewer@a.test',
              roleId: ROLE.viewer,
              permissions: ['team.view', 'vm.view'],
            },
          ],
        },
        message: 'OK',
      },
    });
  });

  it.each([
    ['outsider', (): number => world.alphaId],
    ['admin', (): number => world.other.teamId],
    ['admin', (): number => 999_999],
  ] as const)('answers 404 to a %s on team #%#', async (who, teamId) => {
    expect(await world.call(who, 'GET', `/permissions/list/${teamId()}`)).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it('refuses a non-numeric id naming it', async () => {
    const res = await world.call('admin', 'GET', '/permissions/list/abc');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('id');
  });
});

describe('POST /permissions/assign', () => {
  it('lets a Manager set several roles at once', async () => {
    const { alphaId, userIds } = world;
    const res = await world.call('manager', 'POST', '/permissions/assign', {
      teamId: alphaId,
      assignments: [
        { userId: userIds.viewer, roleId: ROLE.manager },
        { userId: userIds.operator, roleId: ROLE.viewer },
      ],
    });

    expect(res).toEqual({ status: 200, body: { data: null, message: 'Permissions saved' } });
    expect(await world.roleOf(alphaId, userIds.viewer)).toBe(ROLE.manager);
    expect(await world.roleOf(alphaId, userIds.operator)).toBe(ROLE.viewer);
    expect(await world.roleOf(alphaId, userIds.manager)).toBe(ROLE.manager);
  });

  it('gives a user named twice the last role, and lets an Admin assign', async () => {
    const { alphaId, userIds } = world;
    const res = await world.call('admin', 'POST', '/permissions/assign', {
      teamId: alphaId,
      assignments: [
        { userId: userIds.viewer, roleId: ROLE.manager },
        { userId: userIds.operator, roleId: ROLE.operator },
        { userId: userIds.viewer, roleId: ROLE.viewer },
      ],
    });
    expect(res.status).toBe(200);
    expect(await world.roleOf(alphaId, userIds.viewer)).toBe(ROLE.viewer);
    expect(await world.roleOf(alphaId, userIds.operator)).toBe(ROLE.operator);
  });

  it.each([
    ['a company user who is not a member', (): number => world.userIds.outsider],
    ["another company's user", (): number => world.other.userId],
    ['a user who does not exist', (): number => 999_999],
  ])('changes nothing and answers 404 when one target is %s', async (_label, userId) => {
    const assignments = [
      { userId: world.userIds.viewer, roleId: ROLE.operator },
      { userId: userId(), roleId: ROLE.manager },
    ];
    expect(await refused('manager', { teamId: world.alphaId, assignments })).toEqual({
      status: 404,
      body: NOT_MEMBER,
    });
  });

  it("changes nothing and answers 403 when one target holds an Admin's membership", async () => {
    const assignments = [
      { userId: world.userIds.viewer, roleId: ROLE.operator },
      { userId: adminMemberId, roleId: ROLE.manager },
    ];
    expect(await refused('manager', { teamId: world.alphaId, assignments })).toEqual({
      status: 403,
      body: { data: null, message: "An Admin's role cannot be changed" },
    });
  });

  it.each([
    ['operator', (): number => world.alphaId, 403, FORBIDDEN],
    ['viewer', (): number => world.alphaId, 403, FORBIDDEN],
    ['outsider', (): number => world.alphaId, 404, NOT_FOUND],
    ['admin', (): number => world.other.teamId, 404, NOT_FOUND],
    ['manager', (): number => world.other.teamId, 404, NOT_FOUND],
  ] as const)('refuses a %s on team #%#', async (who, teamId, status, body) => {
    const id = teamId();
    const userId = id === world.alphaId ? world.userIds.viewer : world.other.userId;
    const payload = { teamId: id, assignments: [{ userId, roleId: ROLE.operator }] };
    expect(await refused(who, payload)).toEqual({ status, body });
  });

  it.each([
    [{ assignments: [] }, 'assignments'],
    [{ assignments: [{ userId: 2, roleId: ROLE.admin }] }, 'assignments.0.roleId'],
    [
      {
        assignments: [
          { userId: 2, roleId: 2 },
          { userId: 'x', roleId: 2 },
        ],
      },
      'assignments.1.userId',
    ],
    [{ teamId: 'x', assignments: [{ userId: 2, roleId: 2 }] }, 'teamId'],
  ])('refuses %j naming the field', async (body, field) => {
    const res = await refused('admin', { teamId: world.alphaId, ...body });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});
