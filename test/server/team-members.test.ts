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

/** POST /teams/addUser and DELETE /teams/removeUser. */

let world: TeamWorld;
beforeAll(async () => {
  world = await startTeamWorld();
});
afterAll(() => world.close());

const newUser = (isAdmin = false) =>
  createUser(world.server.database.db, { companyId: world.companyId, isAdmin });

const ADDED = { status: 200, body: { data: null, message: 'User added to team' } };
const REMOVED = { status: 200, body: { data: null, message: 'User removed from team' } };
const USER_NOT_FOUND = { data: null, message: 'User not found' };

/** The answer to a refused call, and proof that it changed nothing. */
async function refused(who: Who, method: 'POST' | 'DELETE', url: string, payload: object) {
  const before = await world.state();
  const res = await world.call(who, method, url, payload);
  expect(await world.state()).toBe(before);
  return res;
}

describe('POST /teams/addUser', () => {
  it('lets a Manager add a user of the company with the role asked', async () => {
    const user = await newUser();
    const payload = { teamId: world.alphaId, userId: user.id, roleId: ROLE.operator };
    expect(await world.call('manager', 'POST', '/teams/addUser', payload)).toEqual(ADDED);
    expect(await world.roleOf(world.alphaId, user.id)).toBe(ROLE.operator);
  });

  it('makes a new member a Viewer when no role is asked, also when an Admin adds', async () => {
    const user = await newUser();
    const payload = { teamId: world.alphaId, userId: user.id };
    expect(await world.call('admin', 'POST', '/teams/addUser', payload)).toEqual(ADDED);
    expect(await world.roleOf(world.alphaId, user.id)).toBe(ROLE.viewer);
  });

  it('gives an Admin user the Admin role whatever was asked', async () => {
    const admin = await newUser(true);
    const payload = { teamId: world.alphaId, userId: admin.id, roleId: ROLE.viewer };
    expect(await world.call('manager', 'POST', '/teams/addUser', payload)).toEqual(ADDED);
    expect(await world.roleOf(world.alphaId, admin.id)).toBe(ROLE.admin);
  });

  it('refuses a user who is already a member with 409', async () => {
    const payload = { teamId: world.alphaId, userId: world.userIds.viewer, roleId: ROLE.manager };
    expect(await refused('manager', 'POST', '/teams/addUser', payload)).toEqual({
      status: 409,
      body: { data: null, message: 'The user is already a member of this team' },
    });
  });

  it.each([
    ["another company's user", (): number => world.other.userId],
    ['a user who does not exist', (): number => 999_999],
  ])('answers 404 for %s', async (_label, userId) => {
    const payload = { teamId: world.alphaId, userId: userId() };
    expect(await refused('admin', 'POST', '/teams/addUser', payload)).toEqual({
      status: 404,
      body: USER_NOT_FOUND,
    });
  });

  it.each([
    ['operator', (): number => world.alphaId, 403, FORBIDDEN],
    ['viewer', (): number => world.alphaId, 403, FORBIDDEN],
    ['outsider', (): number => world.alphaId, 404, NOT_FOUND],
    ['admin', (): number => world.other.teamId, 404, NOT_FOUND],
    ['manager', (): number => world.other.teamId, 404, NOT_FOUND],
  ] as const)('refuses a %s on team #%#', async (who, teamId, status, body) => {
    const payload = { teamId: teamId(), userId: world.userIds.outsider };
    expect(await refused(who, 'POST', '/teams/addUser', payload)).toEqual({ status, body });
  });

  it("answers 404 when another company's user is put in another company's team", async () => {
    const payload = { teamId: world.other.teamId, userId: world.other.userId };
    expect(await refused('admin', 'POST', '/teams/addUser', payload)).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it.each([
    [
      { teamId: 1, userId: 2, roleId: ROLE.admin },
      'roleId',
      'The Admin role cannot be assigned to a team member',
    ],
    [{ teamId: 1, userId: 2, roleId: 9 }, 'roleId', 'Unknown role'],
    [{ teamId: 1, userId: 'x' }, 'userId', expect.any(String)],
    [{ userId: 2 }, 'teamId', expect.any(String)],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const res = await refused('admin', 'POST', '/teams/addUser', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ field, message });
  });
});

describe('DELETE /teams/removeUser', () => {
  it('lets a Manager remove a member', async () => {
    const user = await newUser();
    await addTeamMember(world.server.database.db, { teamId: world.alphaId, userId: user.id });
    const payload = { teamId: world.alphaId, userId: user.id };

    expect(await world.call('manager', 'DELETE', '/teams/removeUser', payload)).toEqual(REMOVED);
    expect(await world.roleOf(world.alphaId, user.id)).toBeNull();
    expect(await world.roleOf(world.alphaId, world.userIds.viewer)).toBe(ROLE.viewer);
  });

  it("lets an Admin remove an Admin's membership", async () => {
    const admin = await newUser(true);
    const { alphaId } = world;
    await addTeamMember(world.server.database.db, {
      teamId: alphaId,
      userId: admin.id,
      roleId: ROLE.admin,
    });
    const payload = { teamId: alphaId, userId: admin.id };
    expect(await world.call('admin', 'DELETE', '/teams/removeUser', payload)).toEqual(REMOVED);
    expect(await world.roleOf(alphaId, admin.id)).toBeNull();
  });

  it.each([
    ['a company user who is not a member', (): number => world.userIds.outsider],
    ["another company's user", (): number => world.other.userId],
    ['a user who does not exist', (): number => 999_999],
  ])('answers 404 for %s', async (_label, userId) => {
    const payload = { teamId: world.alphaId, userId: userId() };
    expect(await refused('manager', 'DELETE', '/teams/removeUser', payload)).toEqual({
      status: 404,
      body: NOT_MEMBER,
    });
  });

  it.each([
    ['operator', (): number => world.alphaId, 403, FORBIDDEN],
    ['viewer', (): number => world.alphaId, 403, FORBIDDEN],
    ['outsider', (): number => world.alphaId, 404, NOT_FOUND],
    ['admin', (): number => world.other.teamId, 404, NOT_FOUND],
  ] as const)('refuses a %s on team #%#', async (who, teamId, status, body) => {
    const teamIdValue = teamId();
    const userId = teamIdValue === world.alphaId ? world.userIds.viewer : world.other.userId;
    const payload = { teamId: teamIdValue, userId };
    expect(await refused(who, 'DELETE', '/teams/removeUser', payload)).toEqual({ status, body });
  });

  it('refuses a body without userId naming the field', async () => {
    const res = await refused('admin', 'DELETE', '/teams/removeUser', { teamId: world.alphaId });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('userId');
  });
});
