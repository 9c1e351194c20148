import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';
import { addTeamMember, createCompany, createTeam, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';

let server: TestServer;
let token: string;
/** Company users by short name; ids come from the database. */
const ids = new Map<string, number>();
let outsiderId: number;
/** bob and carol are its members; the other company's team has a member of its own. */
let teamId: number;
let foreignTeamId: number;

const day = (n: number) => new Date(`2026-01-0${n}T09:00:00Z`);
const people = [
  {
    key: 'alice',
    firstName: 'Alice',
    lastName: 'Archer',
    email: 'alice@acme.test',
    createdAt: day(5),
    isAdmin: true,
  },
  { key: 'bob', firstName: 'bob', lastName: 'Baker', email: 'bob@acme.test', createdAt: day(3) },
  {
    key: 'carol',
    firstName: 'Carol',
    lastName: 'Carter',
    email: 'carol@acme.test',
    createdAt: day(4),
  },
  { key: 'danB', firstName: 'Dan', lastName: 'Brown', email: 'zed@acme.test', createdAt: day(1) },
  { key: 'danA', firstName: 'Dan', lastName: 'Able', email: 'dan@acme.test', createdAt: day(2) },
  { key: 'eve', firstName: 'Eve', lastName: 'O_Neil', email: 'eve@acme.test', createdAt: day(6) },
  {
    key: 'frank',
    firstName: 'Frank',
    lastName: '100%',
    email: 'frank@acme.test',
    createdAt: day(6),
  },
];

const listAs = (as: string, query: Record<string, string | number | boolean> = {}) =>
  server.app.inject({
    method: 'GET',
    url: '/api/v1/users/list',
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    headers: bearer(as),
  });

async function list(query: Record<string, string | number | boolean> = {}, as = token) {
  const res = await listAs(as, query);
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().data as { data: { id: number }[]; totalPages: number };
}

/** The short names of a page, in order. */
const keysOf = (page: { data: { id: number }[] }) =>
  page.data.map((row) => [...ids].find(([, id]) => id === row.id)?.[0] ?? `other:${row.id}`);

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  const { company } = await createCompany(db);
  const other = await createCompany(db);
  // Created first, so it would head most orders if the company filter were missing.
  ({ id: outsiderId } = await createUser(db, {
    companyId: other.company.id,
    firstName: 'Alice',
    lastName: 'Aardvark',
    email: 'alice@acme-other.test',
    createdAt: new Date('2025-12-31T00:00:00Z'),
  }));
  for (const { key, ...person } of people) {
    const user = await createUser(db, { companyId: company.id, ...person });
    ids.set(key, user.id);
  }
  teamId = (await createTeam(db, { companyId: company.id, name: 'Builders' })).id;
  await addTeamMember(db, { teamId, userId: ids.get('bob')! });
  await addTeamMember(db, { teamId, userId: ids.get('carol')! });
  foreignTeamId = (await createTeam(db, { companyId: other.company.id, name: 'Builders' })).id;
  await addTeamMember(db, { teamId: foreignTeamId, userId: outsiderId });
  ({ token } = await signIn(server, 'alice@acme.test'));
});
afterAll(() => server.close());

describe('GET /users/list', () => {
  it('answers a page of rows of the caller company, by name', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/users/list',
      headers: bearer(token),
    });

    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ data: { data: expect.any(Array), totalPages: 1 }, message: 'OK' });
    expect(keysOf(body.data)).toEqual(['alice', 'bob', 'carol', 'danA', 'danB', 'eve', 'frank']);
    expect(body.data.data[0]).toEqual({
      id: ids.get('alice'),
      firstName: 'Alice',
      lastName: 'Archer',
      email: 'alice@acme.test',
      createdAt: day(5).toISOString(),
      isAdmin: true,
    });
  });

  it('never shows users of another company', async () => {
    const queries: Record<string, string | number>[] = [
      { rowsPerPage: 100 },
      { search: 'alice' },
      { search: 'aardvark' },
    ];
    for (const query of queries) {
      const page = await list(query);
      expect(page.data.map((row) => row.id)).not.toContain(outsiderId);
    }
    expect((await list({ search: 'alice' })).data.map((row) => row.id)).toEqual([ids.get('alice')]);
  });

  it.each([
    ['ARCH', ['alice']],
    ['dan b', ['danB']],
    ['zed@', ['danB']],
    ['acme.test', ['alice', 'bob', 'carol', 'danA', 'danB', 'eve', 'frank']],
    ['%', ['frank']],
    ['_', ['eve']],
    ['o_n', ['eve']],
    ['nobody', []],
  ])('finds %j in names and addresses, case-insensitively and literally', async (search, keys) => {
    const page = await list({ search });
    expect(keysOf(page)).toEqual(keys);
    expect(page.totalPages).toBe(1);
  });

  it.each([
    ['name', ['alice', 'bob', 'carol', 'danA', 'danB', 'eve', 'frank']],
    ['email', ['alice', 'bob', 'carol', 'danA', 'eve', 'frank', 'danB']],
    // eve and frank were created at the same moment: the id decides.
    ['createdAt', ['danB', 'danA', 'bob', 'carol', 'alice', 'eve', 'frank']],
  ])('sorts by %s both ways', async (sortColumn, ascending) => {
    expect(keysOf(await list({ sortColumn, sortDescending: false }))).toEqual(ascending);
    expect(keysOf(await list({ sortColumn, sortDescending: true }))).toEqual(
      [...ascending].reverse(),
    );
  });

  it('pages through the rows without gaps or repeats', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list({ page, rowsPerPage: 3 })));

    expect(pages.map((page) => page.totalPages)).toEqual([3, 3, 3, 3]);
    expect(pages.map(keysOf)).toEqual([
      ['alice', 'bob', 'carol'],
      ['danA', 'danB', 'eve'],
      ['frank'],
      [],
    ]);
    expect((await list({ rowsPerPage: 7 })).totalPages).toBe(1);
    expect((await list({ rowsPerPage: 6 })).totalPages).toBe(2);
    expect((await list({ search: 'dan', rowsPerPage: 1, page: 2 })).totalPages).toBe(2);
  });

  it.each([
    [{ rowsPerPage: '0' }, 'rowsPerPage'],
    [{ rowsPerPage: '101' }, 'rowsPerPage'],
    [{ page: 'two' }, 'page'],
    [{ sortColumn: 'password' }, 'sortColumn'],
    [{ sortDescending: 'maybe' }, 'sortDescending'],
  ])('refuses the query %j naming the parameter', async (query, field) => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/users/list',
      query,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe(field);
  });
});

describe('GET /users/list?excludeTeamId', () => {
  const nonMembers = ['alice', 'danA', 'danB', 'eve', 'frank'];

  it("leaves out the team's members, before paging", async () => {
    expect(keysOf(await list({ excludeTeamId: teamId }))).toEqual(nonMembers);
    expect(keysOf(await list({ search: 'er' }))).toEqual(['alice', 'bob', 'carol']);
    expect(keysOf(await list({ excludeTeamId: teamId, search: 'er' }))).toEqual(['alice']);
    const firstOfTwo = await list({ excludeTeamId: teamId, rowsPerPage: 4 });
    expect(keysOf(firstOfTwo)).toEqual(['alice', 'danA', 'danB', 'eve']);
    expect(firstOfTwo.totalPages).toBe(2);
    expect((await list({ excludeTeamId: teamId, rowsPerPage: 5 })).totalPages).toBe(1);
  });

  it('serves a member of the team who is not an Admin', async () => {
    const { token: bobToken } = await signIn(server, 'bob@acme.test');

    expect(keysOf(await list({ excludeTeamId: teamId }, bobToken))).toEqual(nonMembers);
  });

  it('answers 404 for a team the caller cannot see', async () => {
    const { token: danToken } = await signIn(server, 'dan@acme.test');
    const cases: [string, number][] = [
      [danToken, teamId],
      [token, foreignTeamId],
      [token, 2_000_000],
    ];

    for (const [as, excludeTeamId] of cases) {
      const res = await listAs(as, { excludeTeamId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ data: null, message: 'Team not found' });
    }
  });

  it.each(['x', '0', '-3'])('names a malformed team id %j', async (excludeTeamId) => {
    const res = await listAs(token, { excludeTeamId });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('excludeTeamId');
  });
});

describe('GET /users/me', () => {
  it('answers the signed-in user', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { id: ids.get('alice'), email: 'alice@acme.test', isAdmin: true, resetKey: null },
      message: 'OK',
    });
  });
});
