import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, teamMembers, users } from '../../server/db/schema';
import { ROLE } from '../../src/api/contract/roles';
import { startTestServer, type TestServer } from './support/harness';
import { lastMailTo, linkIn, mailsTo } from './support/mail';
import { addTeamMember, createCompany, createTeam, createUser, NEW_PASSWORD } from './support/seed';
import { bearer, signIn } from './support/sign-in';

let server: TestServer;
let companyId: number;
let adminToken: string;
let managerToken: string;
let staffAdminToken: string;
const teamIds: Record<'red' | 'blue' | 'foreign', number> = { red: 0, blue: 0, foreign: 0 };

const create = (token: string, payload: Record<string, unknown>) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/users/create',
    headers: bearer(token),
    payload,
  });

/** Every user and membership row: what "nothing changed" compares. */
async function snapshot() {
  const db = server.database.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    members: await db
      .select()
      .from(teamMembers)
      .orderBy(asc(teamMembers.teamId), asc(teamMembers.userId)),
  };
}

const userByEmail = async (email: string) =>
  (await server.database.db.select().from(users).where(eq(users.email, email)))[0];

const membershipsOf = (userId: number) =>
  server.database.db
    .select({ teamId: teamMembers.teamId, roleId: teamMembers.roleId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.teamId));

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  ({
    company: { id: companyId },
  } = await createCompany(db, { resellerName: 'Cloudy' }));
  const admin = await createUser(db, { companyId, email: 'admin@acme.test', isAdmin: true });
  const manager = await createUser(db, { companyId, email: 'manager@acme.test' });
  await createUser(db, { companyId, email: 'taken@acme.test' });
  teamIds.red = (await createTeam(db, { companyId, name: 'Red' })).id;
  teamIds.blue = (await createTeam(db, { companyId, name: 'Blue' })).id;
  await addTeamMember(db, { teamId: teamIds.red, userId: manager.id, roleId: ROLE.manager });

  const other = await createCompany(db);
  teamIds.foreign = (await createTeam(db, { companyId: other.company.id })).id;
  await createUser(db, { companyId: other.company.id, email: 'elsewhere@other.test' });

  const staff = await createCompany(db);
  await db
    .update(companies)
    .set({ isResellerStaff: true })
    .where(eq(companies.id, staff.company.id));
  await createUser(db, { companyId: staff.company.id, email: 'boss@staff.test', isAdmin: true });

  ({ token: adminToken } = await signIn(server, admin.email));
  ({ token: managerToken } = await signIn(server, manager.email));
  ({ token: staffAdminToken } = await signIn(server, 'boss@staff.test'));
});
afterAll(() => server.close());

describe('POST /users/create', () => {
  it('invites a user into teams, and the e-mailed link activates the account', async () => {
    const res = await create(adminToken, {
      email: '  New.Person@Acme.TEST ',
      roleId: ROLE.operator,
      teamIds: [teamIds.blue, teamIds.red, teamIds.blue],
    });

    expect(res.statusCode).toBe(200);
    const { id } = res.json().data as { id: number };
    expect(res.json()).toEqual({
      data: { id: expect.any(Number) },
      message: 'Completed creating user: new.person@acme.test',
    });
    expect(await userByEmail('new.person@acme.test')).toMatchObject({
      id,
      companyId,
      firstName: '',
      lastName: '',
      passwordHash: null,
      isAdmin: false,
      isReseller: false,
      forcePasswordReset: false,
      activatedAt: null,
      createdAt: server.clock.now(),
    });
    expect(await membershipsOf(id)).toEqual(
      [
        { teamId: teamIds.red, roleId: ROLE.operator },
        { teamId: teamIds.blue, roleId: ROLE.operator },
      ].sort((a, b) => a.teamId - b.teamId),
    );

    await server.settled();
    const mail = lastMailTo(server, 'new.person@acme.test');
    expect(mail.subject).toBe('Activate your Cloudy account');
    const link = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe('http://console.test/confirmNewUser');
    expect(link.searchParams.get('id')).toBe(String(id));
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const activated = await server.app.inject({
      method: 'POST',
      url: `/api/v1/users/confirmEmail/${token}`,
      payload: { id, resetKey: token, password: NEW_PASSWORD, firstName: 'Nia', lastName: 'New' },
    });
    expect(activated.statusCode).toBe(200);
    const session = await signIn(server, 'new.person@acme.test', { password: NEW_PASSWORD });
    expect(session.user).toMatchObject({ id, firstName: 'Nia', lastName: 'New', isAdmin: false });
  });

  it('makes a company Admin with role 1, whose memberships carry the Admin role', async () => {
    const res = await create(adminToken, {
      email: 'second.admin@acme.test',
      roleId: ROLE.admin,
      teamIds: [teamIds.red],
    });

    expect(res.statusCode).toBe(200);
    const row = await userByEmail('second.admin@acme.test');
    expect(row).toMatchObject({ id: res.json().data.id, isAdmin: true, isReseller: false });
    expect(await membershipsOf(row!.id)).toEqual([{ teamId: teamIds.red, roleId: ROLE.admin }]);
  });

  it('creates a user without teams, a reseller for the reseller staff company', async () => {
    const res = await create(staffAdminToken, { email: 'clerk@staff.test', roleId: ROLE.viewer });

    expect(res.statusCode).toBe(200);
    const row = await userByEmail('clerk@staff.test');
    expect(row).toMatchObject({ isAdmin: false, isReseller: true });
    expect(await membershipsOf(row!.id)).toEqual([]);
    await server.settled();
    expect(mailsTo(server, 'clerk@staff.test')).toHaveLength(1);
  });

  it('is for Admins only', async () => {
    const before = await snapshot();

    const res = await create(managerToken, {
      email: 'by.manager@acme.test',
      roleId: ROLE.viewer,
      teamIds: [teamIds.red],
    });

    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ data: null, message: 'Only Admins can do that' });
    expect(await snapshot()).toEqual(before);
    await server.settled();
    expect(mailsTo(server, 'by.manager@acme.test')).toEqual([]);
  });

  it.each([
    ['another company', () => [teamIds.foreign]],
    ['an unknown', () => [2_000_000]],
    ['an own and another company', () => [teamIds.red, teamIds.foreign]],
  ])('answers 404 naming teamIds for %s team, creating nothing', async (_label, teams) => {
    const before = await snapshot();

    const res = await create(adminToken, {
      email: 'intruder@acme.test',
      roleId: ROLE.viewer,
      teamIds: teams(),
    });

    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      data: null,
      message: 'Team not found',
      errors: [{ field: 'teamIds', message: 'Team not found' }],
    });
    expect(await snapshot()).toEqual(before);
    await server.settled();
    expect(mailsTo(server, 'intruder@acme.test')).toEqual([]);
  });

  it.each(['taken@acme.test', 'TAKEN@Acme.Test', 'elsewhere@other.test'])(
    'refuses %s, an address already in use anywhere in the product',
    async (email) => {
      const before = await snapshot();

      const res = await create(adminToken, { email, roleId: ROLE.viewer, teamIds: [teamIds.red] });

      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ data: null, message: 'A user with this email already exists' });
      expect(await snapshot()).toEqual(before);
    },
  );

  it('creates one user when the same address is invited twice at once', async () => {
    const payload = { email: 'twice@acme.test', roleId: ROLE.viewer, teamIds: [teamIds.blue] };

    const answers = await Promise.all([create(adminToken, payload), create(adminToken, payload)]);

    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const rows = await server.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'twice@acme.test'));
    expect(rows).toHaveLength(1);
    expect(await membershipsOf(rows[0]!.id)).toEqual([
      { teamId: teamIds.blue, roleId: ROLE.viewer },
    ]);
    await server.settled();
    expect(mailsTo(server, 'twice@acme.test')).toHaveLength(1);
  });

  it.each([
    [{ email: 'nope' }, 'email', 'Entered value does not match email format'],
    [{ email: undefined }, 'email', 'Email is required'],
    [{ roleId: undefined }, 'roleId', 'Role is required'],
    [{ roleId: null }, 'roleId', 'Role is required'],
    [{ roleId: 9 }, 'roleId', 'Unknown role'],
    [{ roleId: true }, 'roleId', 'Role is required'],
    [{ teamIds: ['red'] }, 'teamIds.0', expect.any(String)],
  ])('refuses %j naming the field', async (change, field, message) => {
    const before = await snapshot();

    const res = await create(adminToken, {
      email: 'valid@acme.test',
      roleId: ROLE.viewer,
      teamIds: [],
      ...change,
    });

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message }]);
    expect(await snapshot()).toEqual(before);
  });
});
