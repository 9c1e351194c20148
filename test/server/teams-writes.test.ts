import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamMembers, teams } from '../../server/db/schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { insertVms } from './support/vm-fixtures';
import { createTeam } from './support/seed';
import {
  ADMINS_ONLY,
  FORBIDDEN,
  NOT_FOUND,
  startTeamWorld,
  type TeamWorld,
  type Who,
} from './support/team-fixtures';

/** POST /teams/create, POST /teams/update and DELETE /teams/delete. */

let world: TeamWorld;
beforeAll(async () => {
  world = await startTeamWorld();
});
afterAll(() => world.close());

const db = () => world.server.database.db;
const teamRow = async (id: number) => (await db().select().from(teams).where(eq(teams.id, id)))[0];
const NAME_TAKEN = { data: null, message: 'A team with this name already exists' };

/** The answer to a refused call, and proof that it changed nothing. */
async function refused(who: Who, method: 'POST' | 'DELETE', url: string, payload: object) {
  const before = await world.state();
  const res = await world.call(who, method, url, payload);
  expect(await world.state()).toBe(before);
  return res;
}

describe('POST /teams/create', () => {
  it('creates a team of the caller company without making the Admin a member', async () => {
    const res = await world.call('admin', 'POST', '/teams/create', { name: '  Delta  ' });

    expect(res).toEqual({
      status: 200,
      body: { data: { teamId: expect.any(Number) }, message: 'Team created' },
    });
    const teamId = res.body.data.teamId;
    expect(await teamRow(teamId)).toMatchObject({
      companyId: world.companyId,
      name: 'Delta',
      parentTeamId: null,
    });
    expect(await db().select().from(teamMembers).where(eq(teamMembers.teamId, teamId))).toEqual([]);
  });

  it('creates a child team', async () => {
    const res = await world.call('admin', 'POST', '/teams/create', {
      name: 'Alpha child',
      parentTeamId: world.alphaId,
    });
    expect(res.status).toBe(200);
    expect((await teamRow(res.body.data.teamId))?.parentTeamId).toBe(world.alphaId);
  });

  it("takes a name that only another company's team has", async () => {
    const res = await world.call('admin', 'POST', '/teams/create', { name: 'bravo' });
    expect(res.status).toBe(200);
  });

  it.each(['Alpha', 'ALPHA', ' alpha '])('refuses the taken name %j with 409', async (name) => {
    expect(await refused('admin', 'POST', '/teams/create', { name })).toEqual({
      status: 409,
      body: NAME_TAKEN,
    });
  });

  it('lets only one of two simultaneous creations take a name', async () => {
    const create = () => world.call('admin', 'POST', '/teams/create', { name: 'Foxtrot' });
    const answers = await Promise.all([create(), create()]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
  });

  it.each([
    ["another company's team", (): number => world.other.teamId],
    ['a team that does not exist', (): number => 999_999],
  ])('answers 404 for a parent that is %s', async (_label, parentTeamId) => {
    const res = await refused('admin', 'POST', '/teams/create', {
      name: 'Orphan',
      parentTeamId: parentTeamId(),
    });
    expect(res).toEqual({ status: 404, body: { data: null, message: 'Parent team not found' } });
  });

  it.each(['manager', 'operator', 'viewer', 'outsider'] as const)(
    'refuses a %s: only Admins create teams',
    async (who) => {
      const res = await refused(who, 'POST', '/teams/create', { name: `By ${who}` });
      expect(res).toEqual({ status: 403, body: ADMINS_ONLY });
    },
  );

  it.each([
    [{ name: '' }, 'name', 'Team name cannot be empty'],
    [{ name: '   ' }, 'name', 'Team name cannot be empty'],
    [{}, 'name', 'Team name cannot be empty'],
    [{ name: 'x'.repeat(101) }, 'name', 'Team name must not exceed 100 characters'],
    [{ name: 'Ok', parentTeamId: 'x' }, 'parentTeamId', expect.any(String)],
  ])('refuses %j naming the field', async (payload, field, message) => {
    const res = await refused('admin', 'POST', '/teams/create', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ field, message });
  });
});

describe('POST /teams/update', () => {
  it('lets a Manager rename the team', async () => {
    const res = await world.call('manager', 'POST', '/teams/update', {
      teamId: world.alphaId,
      name: 'Alpha Prime',
    });
    expect(res).toEqual({ status: 200, body: { data: null, message: 'Team updated' } });
    expect((await teamRow(world.alphaId))?.name).toBe('Alpha Prime');
  });

  it('lets an Admin rename a team to its own name in another case', async () => {
    const payload = { teamId: world.alphaId, name: 'ALPHA PRIME' };
    expect((await world.call('admin', 'POST', '/teams/update', payload)).status).toBe(200);
    expect((await teamRow(world.alphaId))?.name).toBe('ALPHA PRIME');
  });

  it("refuses another team's name with 409", async () => {
    const { companyId } = world;
    await createTeam(db(), { companyId, name: 'Echo' });
    const payload = { teamId: world.alphaId, name: 'echo' };
    expect(await refused('manager', 'POST', '/teams/update', payload)).toEqual({
      status: 409,
      body: NAME_TAKEN,
    });
  });

  it.each([
    ['operator', (): number => world.alphaId, 403, FORBIDDEN],
    ['viewer', (): number => world.alphaId, 403, FORBIDDEN],
    ['outsider', (): number => world.alphaId, 404, NOT_FOUND],
    ['admin', (): number => world.other.teamId, 404, NOT_FOUND],
    ['admin', (): number => 999_999, 404, NOT_FOUND],
  ] as const)('refuses a %s on team #%#', async (who, teamId, status, body) => {
    const payload = { teamId: teamId(), name: 'Hacked' };
    expect(await refused(who, 'POST', '/teams/update', payload)).toEqual({ status, body });
  });

  it.each([
    [{ teamId: 'x', name: 'Ok' }, 'teamId'],
    [{ teamId: 1, name: '' }, 'name'],
  ])('refuses %j naming the field', async (payload, field) => {
    const res = await refused('admin', 'POST', '/teams/update', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe('DELETE /teams/delete', () => {
  it('deletes the team: members go, its VMs become unassigned, its children lose their parent', async () => {
    const { companyId, userIds } = world;
    const doomed = await createTeam(db(), { companyId, name: 'Doomed' });
    const child = await createTeam(db(), { companyId, name: 'Child', parentTeamId: doomed.id });
    await db().insert(teamMembers).values({ teamId: doomed.id, userId: userIds.viewer, roleId: 2 });
    const vms = await insertVms(db(), [
      { companyId, teamId: doomed.id, name: 'vm1' },
      { companyId, teamId: doomed.id, name: 'vm2' },
    ]);

    const res = await world.call('admin', 'DELETE', '/teams/delete', { teamId: doomed.id });

    expect(res).toEqual({ status: 200, body: { data: null, message: 'Team deleted' } });
    expect(await teamRow(doomed.id)).toBeUndefined();
    expect(await world.roleOf(doomed.id, userIds.viewer)).toBeNull();
    expect((await teamRow(child.id))?.parentTeamId).toBeNull();
    const left = await db()
      .select({ id: virtualMachines.id, teamId: virtualMachines.teamId })
      .from(virtualMachines)
      .orderBy(asc(virtualMachines.id));
    expect(left).toEqual(vms.map(({ id }) => ({ id, teamId: null })));
    // The viewer's membership of Alpha is untouched.
    expect(await world.roleOf(world.alphaId, userIds.viewer)).toBe(4);
  });

  it.each([
    ['manager', (): number => world.alphaId, 403, ADMINS_ONLY],
    ['operator', (): number => world.alphaId, 403, ADMINS_ONLY],
    ['viewer', (): number => world.alphaId, 403, ADMINS_ONLY],
    ['outsider', (): number => world.alphaId, 404, NOT_FOUND],
    ['admin', (): number => world.other.teamId, 404, NOT_FOUND],
    ['admin', (): number => 999_999, 404, NOT_FOUND],
  ] as const)('refuses a %s on team #%#', async (who, teamId, status, body) => {
    const res = await refused(who, 'DELETE', '/teams/delete', { teamId: teamId() });
    expect(res).toEqual({ status, body });
  });

  it.each([[{ teamId: 'x' }], [{}]])('refuses %j naming teamId', async (payload) => {
    const res = await refused('admin', 'DELETE', '/teams/delete', payload);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('teamId');
  });
});
