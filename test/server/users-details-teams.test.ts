import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, type RoleId } from '../../src/api/contract/roles';
import { startTestServer, type TestServer } from './support/harness';
import { addTeamMember, createCompany, createTeam, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';

let server: TestServer;
/** Signed-in callers by short name. */
const tokens: Record<'admin' | 'target' | 'colleague' | 'loner', string> = {
  admin: '',
  target: '',
  colleague: '',
  loner: '',
};
let targetId: number;
let invitedId: number;
let outsiderId: number;
/** The target user's teams by name; ids come from the database. */
const teamIds = new Map<string, number>();

// Created in this order so that the id order differs from the name order. First letters differ,
// so the order is the same under any collation.
const targetTeams: [string, RoleId][] = [
  ['gamma', ROLE.manager],
  ['Beta', ROLE.operator],
  ['alpha', ROLE.viewer],
  ['Delta_1', ROLE.viewer],
  ['omega 100%', ROLE.manager],
  ['Epsilon', ROLE.operator],
  ['zeta', ROLE.viewer],
];

async function get(token: string, url: string, query: Record<string, string | number> = {}) {
  return server.app.inject({
    method: 'GET',
    url: `/api/v1/users/${url}`,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    headers: bearer(token),
  });
}

async function teamsOf(token: string, userId: number, query: Record<string, string | number> = {}) {
  const res = await get(token, `teams/${userId}`, query);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  expect(res.json().message).toBe('OK');
  return res.json().data as {
    data: { id: number; name: string; roleId: number }[];
    totalPages: number;
  };
}

const names = (page: { data: { name: string }[] }) => page.data.map((row) => row.name);

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  const { company } = await createCompany(db);
  const companyId = company.id;
  await createUser(db, { companyId, email: 'admin@acme.test', isAdmin: true });
  const target = await createUser(db, {
    companyId,
    email: 'target@acme.test',
    firstName: 'Tara',
    lastName: 'Target',
    createdAt: new Date('2026-02-03T04:05:06Z'),
  });
  targetId = target.id;
  const colleague = await createUser(db, { companyId, email: 'colleague@acme.test' });
  await createUser(db, { companyId, email: 'loner@acme.test' });
  invitedId = (
    await createUser(db, {
      companyId,
      email: 'invited@acme.test',
      firstName: '',
      lastName: '',
      password: null,
      createdAt: new Date('2026-03-01T00:00:00Z'),
    })
  ).id;
  for (const [name, roleId] of targetTeams) {
    const team = await createTeam(db, { companyId, name });
    teamIds.set(name, team.id);
    await addTeamMember(db, { teamId: team.id, userId: targetId, roleId });
  }
  // The colleague shares two of the target's teams and has one of their own.
  await addTeamMember(db, { teamId: teamIds.get('Beta')!, userId: colleague.id });
  await addTeamMember(db, { teamId: teamIds.get('zeta')!, userId: colleague.id });
  const own = await createTeam(db, { companyId, name: 'Colleague only' });
  await addTeamMember(db, { teamId: own.id, userId: colleague.id, roleId: ROLE.manager });

  const other = await createCompany(db);
  outsiderId = (await createUser(db, { companyId: other.company.id })).id;
  const foreignTeam = await createTeam(db, { companyId: other.company.id, name: 'aaa foreign' });
  await addTeamMember(db, { teamId: foreignTeam.id, userId: outsiderId });

  for (const key of Object.keys(tokens) as (keyof typeof tokens)[]) {
    tokens[key] = (await signIn(server, `${key}@acme.test`)).token;
  }
});
afterAll(() => server.close());

describe('GET /users/details/:id', () => {
  it.each(['admin', 'loner'] as const)('answers a user of the company to the %s', async (key) => {
    const active = await get(tokens[key], `details/${targetId}`);
    const invited = await get(tokens[key], `details/${invitedId}`);

    expect(active.statusCode).toBe(200);
    expect(active.json()).toEqual({
      data: {
        id: targetId,
        firstName: 'Tara',
        lastName: 'Target',
        email: 'target@acme.test',
        createdAt: '2026-02-03T04:05:06.000Z',
        isAdmin: false,
        activated: true,
      },
      message: 'OK',
    });
    expect(invited.json().data).toEqual({
      id: invitedId,
      firstName: '',
      lastName: '',
      email: 'invited@acme.test',
      createdAt: '2026-03-01T00:00:00.000Z',
      isAdmin: false,
      activated: false,
    });
  });

  it.each([
    ["another company's", () => outsiderId],
    ['an unknown', () => 2_000_000],
  ])('answers 404 for %s user', async (_label, id) => {
    const res = await get(tokens.admin, `details/${id()}`);

    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ data: null, message: 'User not found' });
  });

  it('names a malformed id', async () => {
    const res = await get(tokens.admin, 'details/abc');

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'id', message: expect.any(String) }]);
  });
});

describe('GET /users/teams/:id', () => {
  const allByName = ['alpha', 'Beta', 'Delta_1', 'Epsilon', 'gamma', 'omega 100%', 'zeta'];

  it('answers an Admin every membership, by name, six to a page', async () => {
    const first = await teamsOf(tokens.admin, targetId);
    const second = await teamsOf(tokens.admin, targetId, { page: 2 });

    expect(first.totalPages).toBe(2);
    expect([...names(first), ...names(second)]).toEqual(allByName);
    expect(first.data[0]).toEqual({ id: teamIds.get('alpha'), name: 'alpha', roleId: ROLE.viewer });
    expect(first.data[1]).toEqual({ id: teamIds.get('Beta'), name: 'Beta', roleId: ROLE.operator });
    expect(second).toEqual({
      data: [{ id: teamIds.get('zeta'), name: 'zeta', roleId: ROLE.viewer }],
      totalPages: 2,
    });
    expect(await teamsOf(tokens.admin, targetId, { page: 3 })).toEqual({ data: [], totalPages: 2 });
  });

  it('answers the user every membership of their own', async () => {
    const page = await teamsOf(tokens.target, targetId, { rowsPerPage: 100 });

    expect(names(page)).toEqual(allByName);
    expect(page.totalPages).toBe(1);
  });

  it('answers another member only the teams they share with the user', async () => {
    expect(await teamsOf(tokens.colleague, targetId)).toEqual({
      data: [
        { id: teamIds.get('Beta'), name: 'Beta', roleId: ROLE.operator },
        { id: teamIds.get('zeta'), name: 'zeta', roleId: ROLE.viewer },
      ],
      totalPages: 1,
    });
    expect(await teamsOf(tokens.loner, targetId)).toEqual({ data: [], totalPages: 1 });
    expect(names(await teamsOf(tokens.colleague, targetId, { search: 'gamma' }))).toEqual([]);
  });

  it.each([
    ['DELTA', ['Delta_1']],
    ['%', ['omega 100%']],
    ['_', ['Delta_1']],
    ['a 1', ['omega 100%']],
    ['nothing', []],
  ])('finds %j in team names, case-insensitively and literally', async (search, expected) => {
    const page = await teamsOf(tokens.admin, targetId, { search });

    expect(names(page)).toEqual(expected);
    expect(page.totalPages).toBe(1);
  });

  it('pages in SQL with the asked size', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((page) => teamsOf(tokens.admin, targetId, { page, rowsPerPage: 3 })),
    );

    expect(pages.map(names)).toEqual([
      ['alpha', 'Beta', 'Delta_1'],
      ['Epsilon', 'gamma', 'omega 100%'],
      ['zeta'],
    ]);
    expect(pages.map((page) => page.totalPages)).toEqual([3, 3, 3]);
  });

  it.each([
    ["another company's", () => outsiderId],
    ['an unknown', () => 2_000_000],
  ])('answers 404 for %s user', async (_label, id) => {
    for (const token of [tokens.admin, tokens.colleague]) {
      const res = await get(token, `teams/${id()}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ data: null, message: 'User not found' });
    }
  });

  it.each([
    ['teams/abc', {}, 'id'],
    [`teams/1`, { rowsPerPage: 0 }, 'rowsPerPage'],
    [`teams/1`, { page: 'first' }, 'page'],
  ])('names the malformed parameter of %s %j', async (url, query, field) => {
    const res = await get(tokens.admin, url, query);

    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe(field);
  });
});
