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

/** GET /roles/userRoles and POST /roles/updateUserRoleForTeam. */

let world: TeamWorld;
/** An Admin user whose Alpha membership holds the fixed Admin role. */
let adminMemberId: number;

beforeAll(async () => {
  world = await startTeamWorld();
  const db = world.server.database.db;
  const admin = await createUser(db, { companyId: world.companyId, isAdmin: true });
  adminMemberId = admin.id;
  await addTeamMember(db, { teamId: world.alphaId, userId: admin.id, roleId: ROLE.admin });
});
afterAll(() => world.close());

const UPDATED = { status: 200, body: { data: null, message: 'User role updated' } };

/** The answer to a refused call, and proof that it changed nothing. */
async function refused(who: Who, payload: object) {
  const before = await world.state();
  const res = await world.call(who, 'POST', '/roles/updateUserRoleForTeam', payload);
  expect(await world.state()).toBe(before);
  return res;
}

describe('GET /roles/userRoles', () => {
  it.each(['admin', 'viewer', 'outsider'] as const)(
    'answers the fixed roles by id to a %s',
    async (who) => {
      const res = await world.call(who, 'GET', '/roles/userRoles');

      expect(res.status).toBe(200);
      expect(res.body.message).toBe('OK');
      const roles = res.body.data as { id: number; name: string; info: string }[];
      expect(roles.map(({ id, name }) => ({ id, name }))).toEqual([
        { id: 1, name: 'Admin' },
        { id: 2, name: 'Manager' },
        { id: 3, name: 'Operator' },
        { id: 4, name: 'Viewer' },
      ]);
      expect(roles[3]!.info).toMatch(/^Read-only: sees the team/);
    },
  );

  it('answers 401 without a session', async () => {
    const res = await world.server.app.inject({ method: 'GET', url: '/api/v1/roles/userRoles' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /roles/updateUserRoleForTeam', () => {
  it("lets a Manager change a member's role", async () => {
    const { alphaId, userIds } = world;
    const payload = { teamId: alphaId, userId: userIds.viewer, roleId: ROLE.operator };

    expect(await world.call('manager', 'POST', '/roles/updateUserRoleForTeam', payload)).toEqual(
      UPDATED,
    );
    expect(await world.roleOf(alphaId, userIds.viewer)).toBe(ROLE.operator);
    expect(await world.roleOf(alphaId, userIds.operator)).toBe(ROLE.operator);
    expect(await world.roleOf(alphaId, userIds.manager)).toBe(ROLE.manager);
  });

  it('lets an Admin who is not a member change a role back', async () => {
    const { alphaId, userIds } = world;
    const payload = { teamId: alphaId, userId: userIds.viewer, roleId: ROLE.viewer };
    expect(await world.call('admin', 'POST', '/roles/updateUserRoleForTeam', payload)).toEqual(
      UPDATED,
    );
    expect(await world.roleOf(alphaId, userIds.viewer)).toBe(ROLE.viewer);
  });

  it("refuses to change an Admin's membership with 403", async () => {
    const payload = { teamId: world.alphaId, userId: adminMemberId, roleId: ROLE.viewer };
    expect(await refused('manager', payload)).toEqual({
      status: 403,
      body: { data: null, message: "An Admin's role cannot be changed" },
    });
    expect(await world.roleOf(world.alphaId, adminMemberId)).toBe(ROLE.admin);
  });

  it.each([
    ['a company user who is not a member', (): number => world.userIds.outsider],
    ["another company's user", (): number => world.other.userId],
    ['a user who does not exist', (): number => 999_999],
  ])('answers 404 for %s', async (_label, userId) => {
    const payload = { teamId: world.alphaId, userId: userId(), roleId: ROLE.manager };
    expect(await refused('manager', payload)).toEqual({ status: 404, body: NOT_MEMBER });
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
    expect(await refused(who, { teamId: id, userId, roleId: ROLE.manager })).toEqual({
      status,
      body,
    });
  });

  it.each([
    [{ roleId: ROLE.admin }, 'roleId', 'The Admin role cannot be assigned to a team member'],
    [{ roleId: 7 }, 'roleId', 'Unknown role'],
    [{ roleId: undefined }, 'roleId', 'Role is required'],
    [{ userId: 'x' }, 'userId', expect.any(String)],
    [{ teamId: 0 }, 'teamId', expect.any(String)],
  ])('refuses %j naming the field', async (change, field, message) => {
    const payload = { teamId: world.alphaId, userId: world.userIds.viewer, ...change };
    const res = await refused('admin', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ field, message });
  });
});
