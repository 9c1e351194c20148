import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/api/contract/roles';
import { addTeamMember, createTeam, createUser } from './support/seed';
import { NOT_FOUND, startTeamWorld, type TeamWorld, type Who } from './support/team-fixtures';
import { insertVms } from './support/vm-fixtures';

/** GET /teams/list and GET /teams/:id: what each caller sees, the counts, search and paging. */

let world: TeamWorld;
let betaId: number;
let gammaId: number;
/** Alpha's members in name order, as the details answer them. */
let alphaMembers: { id: number; name: string; email: string; roleId: number }[];

beforeAll(async () => {
  world = await startTeamWorld();
  const db = world.server.database.db;
  const { companyId, alphaId, userIds } = world;
  betaId = (await createTeam(db, { companyId, name: 'Beta', parentTeamId: alphaId })).id;
  gammaId = (await createTeam(db, { companyId, name: 'gamma_%' })).id;
  await addTeamMember(db, { teamId: betaId, userId: userIds.viewer });
  // An invited user has no names until activation; one user has a first name only.
  const invitee = await createUser(db, {
    companyId,
    email: 'new@a.test',
    firstName: '',
    lastName: '',
    password: null,
  });
  const zed = await createUser(db, { companyId, email: 'zed@a.test', firstName: 'Zed' });
  const bob = await createUser(db, {
    companyId,
    email: 'bob@a.test',
    firstName: 'bob',
    lastName: '',
  });
  for (const user of [invitee, zed, bob]) {
    await addTeamMember(db, { teamId: alphaId, userId: user.id, roleId: ROLE.operator });
  }
  const member = (id: number, name: string, email: string, roleId: number) => ({
    id,
    name,
    email,
    roleId,
  });
  alphaMembers = [
    member(bob.id, 'bob', 'bob@a.test', ROLE.operator),
    member(userIds.manager, 'Mia Manager', 'manager@a.test', ROLE.manager),
    member(invitee.id, 'new@a.test', 'new@a.test', ROLE.operator),
    member(userIds.operator, 'Otto Operator', 'operator@a.test', ROLE.operator),
    member(userIds.viewer, 'Vera Viewer', 'viewer@a.test', ROLE.viewer),
    member(zed.id, 'Zed User', 'zed@a.test', ROLE.operator),
  ];
  // Another company's unassigned user and VMs must not count.
  await createUser(db, { companyId: world.other.companyId });
  const vm = (companyId: number, teamId: number | null, name: string) => ({
    companyId,
    teamId,
    name,
  });
  await insertVms(db, [
    vm(companyId, alphaId, 'a1'),
    vm(companyId, alphaId, 'a2'),
    vm(companyId, alphaId, 'a3'),
    vm(companyId, betaId, 'b1'),
    vm(companyId, null, 'loose1'),
    vm(companyId, null, 'loose2'),
    vm(world.other.companyId, null, 'theirs1'),
    vm(world.other.companyId, world.other.teamId, 'theirs2'),
  ]);
});
afterAll(() => world.close());

async function list(who: Who, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const res = await world.call(who, 'GET', `/teams/list?${search}`);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { data: { id: number; name: string }[]; totalPages: number };
}
const names = (page: { data: { name: string }[] }) => page.data.map((row) => row.name);

describe('GET /teams/list', () => {
  it('shows an Admin every team of the company with its counts and the Unassigned counts', async () => {
    const res = await world.call('admin', 'GET', '/teams/list');

    expect(res).toEqual({
      status: 200,
      body: {
        data: {
          data: [
            { id: world.alphaId, name: 'Alpha', userCount: 6, vmCount: 3 },
            { id: betaId, name: 'Beta', userCount: 1, vmCount: 1 },
            { id: gammaId, name: 'gamma_%', userCount: 0, vmCount: 0 },
          ],
          // The admin and the outsider belong to no team.
          unassignedUsers: 2,
          unassignedVMs: 2,
          totalPages: 1,
        },
        message: 'OK',
      },
    });
  });

  it.each([
    ['manager', ['Alpha']],
    ['operator', ['Alpha']],
    ['viewer', ['Alpha', 'Beta']],
    ['outsider', []],
  ] as const)('shows a %s only their teams and no VMs without a team', async (who, teams) => {
    const page = await list(who);
    expect(names(page)).toEqual(teams);
    expect(page).toMatchObject({ unassignedUsers: 2, unassignedVMs: 0, totalPages: 1 });
  });

  it.each([
    ['ALP', ['Alpha']],
    ['a', ['Alpha', 'Beta', 'gamma_%']],
    ['_', ['gamma_%']],
    ['%', ['gamma_%']],
    ['Bravo', []],
  ])('finds %j in team names, case-insensitively and literally', async (search, teams) => {
    expect(names(await list('admin', { search }))).toEqual(teams);
  });

  it('pages through the teams without gaps or repeats', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((page) => list('admin', { page, rowsPerPage: 2 })),
    );
    expect(pages.map(names)).toEqual([['Alpha', 'Beta'], ['gamma_%'], []]);
    expect(pages.map((page) => page.totalPages)).toEqual([2, 2, 2]);
    expect((await list('admin', { search: 'zzz' })).totalPages).toBe(1);
  });

  it.each([
    ['rowsPerPage=0', 'rowsPerPage'],
    ['page=two', 'page'],
  ])('refuses %s naming the parameter', async (query, field) => {
    const res = await world.call('admin', 'GET', `/teams/list?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe('GET /teams/:id', () => {
  it('answers the team and its first five members by name', async () => {
    const res = await world.call('admin', 'GET', `/teams/${world.alphaId}`);

    expect(res).toEqual({
      status: 200,
      body: {
        data: {
          id: world.alphaId,
          teamName: 'Alpha',
          parentTeamId: null,
          yourRoleId: 1,
          members: alphaMembers.slice(0, 5),
          totalPages: 2,
        },
        message: 'OK',
      },
    });
    const second = await world.call('admin', 'GET', `/teams/${world.alphaId}?page=2`);
    expect(second.body.data.members).toEqual(alphaMembers.slice(5));
    const all = await world.call('admin', 'GET', `/teams/${world.alphaId}?rowsPerPage=6`);
    expect(all.body.data).toMatchObject({ members: alphaMembers, totalPages: 1 });
  });

  it.each([
    ['mia MAN', ['Mia Manager']],
    ['viewer@', ['Vera Viewer']],
    ['new@', ['new@a.test']],
    ['user', ['Zed User']],
    ['nobody', []],
  ])('finds members by name or address: %j', async (search, found) => {
    const res = await world.call('viewer', 'GET', `/teams/${world.alphaId}?search=${search}`);
    expect(res.body.data.members.map((m: { name: string }) => m.name)).toEqual(found);
    expect(res.body.data.totalPages).toBe(1);
  });

  it.each(['admin', 'manager', 'operator', 'viewer'] as const)(
    'lets a %s see the team',
    async (who) => {
      const res = await world.call(who, 'GET', `/teams/${world.alphaId}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ teamName: 'Alpha', yourRoleId: ROLE[who] });
    },
  );

  it('answers the parent team', async () => {
    const res = await world.call('viewer', 'GET', `/teams/${betaId}`);
    expect(res.body.data).toEqual({
      id: betaId,
      teamName: 'Beta',
      parentTeamId: world.alphaId,
      yourRoleId: 4,
      members: [
        { id: world.userIds.viewer, name: 'Vera Viewer', email: 'viewer@a.test', roleId: 4 },
      ],
      totalPages: 1,
    });
  });

  it.each([
    ['a non-member', 'outsider', (): number => world.alphaId],
    ["a member of another of the company's teams", 'operator', (): number => betaId],
    ["an Admin asking for another company's team", 'admin', (): number => world.other.teamId],
    ['an Admin asking for a team that does not exist', 'admin', (): number => 999_999],
  ] as const)('answers 404 to %s', async (_label, who, teamId) => {
    expect(await world.call(who, 'GET', `/teams/${teamId()}`)).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it.each([
    ['abc', 'id'],
    [`${1}?rowsPerPage=101`, 'rowsPerPage'],
  ])('refuses /teams/%s naming the parameter', async (path, field) => {
    const res = await world.call('admin', 'GET', `/teams/${path}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});
