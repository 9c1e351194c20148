import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, teamMembers, userTokens, users } from '../../server/db/schema';
import { ROLE } from '../../src/api/contract/roles';
import { startTestServer, type TestServer } from './support/harness';
import { addTeamMember, createCompany, createTeam, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';

let server: TestServer;
let companyId: number;
let admin: { id: number; token: string };
let member: { id: number; token: string };
let outsiderId: number;

const edit = (token: string, payload: Record<string, unknown>) =>
  server.app.inject({ method: 'POST', url: '/api/v1/users/edit', headers: bearer(token), payload });

const remove = (token: string, id: number | string) =>
  server.app.inject({
    method: 'DELETE',
    url: `/api/v1/users/delete/${id}`,
    headers: bearer(token),
  });

const me = (token: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

const userRow = async (id: number) =>
  (await server.database.db.select().from(users).where(eq(users.id, id)))[0];

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

/** A signed-in user of the company who is a Viewer of a team. */
async function newMember(teamId: number) {
  const user = await createUser(server.database.db, { companyId });
  await addTeamMember(server.database.db, { teamId, userId: user.id });
  const { token } = await signIn(server, user.email);
  return { id: user.id, token };
}

let teamId: number;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  ({
    company: { id: companyId },
  } = await createCompany(db));
  teamId = (await createTeam(db, { companyId })).id;
  const adminUser = await createUser(db, { companyId, email: 'admin@acme.test', isAdmin: true });
  admin = { id: adminUser.id, token: (await signIn(server, adminUser.email)).token };
  const other = await createCompany(db);
  outsiderId = (await createUser(db, { companyId: other.company.id, firstName: 'Olga' })).id;
});
beforeEach(async () => {
  member = await newMember(teamId);
});
afterAll(() => server.close());

describe('POST /users/edit', () => {
  it('lets an Admin rename a user of the company, trimming the names', async () => {
    server.clock.advance(60_000);

    const res = await edit(admin.token, {
      id: member.id,
      firstName: '  Zoë ',
      lastName: " O'Neil-Smith ",
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'User updated successfully' });
    expect(await userRow(member.id)).toMatchObject({
      firstName: 'Zoë',
      lastName: "O'Neil-Smith",
      updatedAt: server.clock.now(),
    });
  });

  it('lets a user who is not an Admin rename themself', async () => {
    const res = await edit(member.token, {
      id: member.id,
      firstName: 'Max',
      lastName: 'Mustermann',
    });

    expect(res.statusCode).toBe(200);
    expect(await userRow(member.id)).toMatchObject({ firstName: 'Max', lastName: 'Mustermann' });
  });

  it('refuses a user who is not an Admin renaming someone else', async () => {
    const before = await snapshot();

    const res = await edit(member.token, { id: admin.id, firstName: 'Mal', lastName: 'Lory' });

    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ data: null, message: 'You do not have permission to do that' });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["another company's", () => outsiderId],
    ['an unknown', () => 2_000_000],
  ])('answers 404 for %s user, changing nothing', async (_label, id) => {
    const before = await snapshot();

    const res = await edit(admin.token, { id: id(), firstName: 'Hacked', lastName: 'Name' });

    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ data: null, message: 'User not found' });
    expect(await snapshot()).toEqual(before);
    expect(await userRow(outsiderId)).toMatchObject({ firstName: 'Olga' });
  });

  it.each([
    [{ firstName: '   ' }, 'firstName', 'First name cannot be empty'],
    [{ lastName: undefined }, 'lastName', 'Last name cannot be empty'],
    [{ firstName: 'R2D2' }, 'firstName', 'First name cannot contain special characters'],
    [{ lastName: 'Smith!' }, 'lastName', 'Last name cannot contain special characters'],
    [{ id: 'abc' }, 'id', expect.any(String)],
  ])('refuses %j naming the field', async (change, field, message) => {
    const before = await snapshot();

    const res = await edit(admin.token, {
      id: member.id,
      firstName: 'Fine',
      lastName: 'Name',
      ...change,
    });

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message }]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('DELETE /users/delete/:id', () => {
  it('deletes the user with their memberships and tokens, and ends their sessions', async () => {
    const db = server.database.db;
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/users/forgotPassword',
      payload: { email: (await userRow(member.id))!.email },
    });
    await server.settled();
    expect(await db.select().from(userTokens).where(eq(userTokens.userId, member.id))).toHaveLength(
      1,
    );
    expect((await me(member.token)).statusCode).toBe(200);

    const res = await remove(admin.token, member.id);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null, message: 'User deleted' });
    expect(await userRow(member.id)).toBeUndefined();
    expect(await db.select().from(teamMembers).where(eq(teamMembers.userId, member.id))).toEqual(
      [],
    );
    expect(await db.select().from(userTokens).where(eq(userTokens.userId, member.id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    const after = await me(member.token);
    expect(after.statusCode).toBe(401);
    expect((await me(admin.token)).statusCode).toBe(200);
  });

  it('refuses an Admin deleting themself', async () => {
    const before = await snapshot();

    const res = await remove(admin.token, admin.id);

    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ data: null, message: 'You cannot delete yourself' });
    expect(await snapshot()).toEqual(before);
    expect((await me(admin.token)).statusCode).toBe(200);
  });

  it('is for Admins only', async () => {
    const colleague = await newMember(teamId);
    const before = await snapshot();

    for (const id of [colleague.id, admin.id, member.id]) {
      const res = await remove(member.token, id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ data: null, message: 'Only Admins can do that' });
    }
    expect(await snapshot()).toEqual(before);
    expect((await me(colleague.token)).statusCode).toBe(200);
  });

  it.each([
    ["another company's", () => outsiderId],
    ['an unknown', () => 2_000_000],
  ])('answers 404 for %s user, deleting nothing', async (_label, id) => {
    const before = await snapshot();

    const res = await remove(admin.token, id());

    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ data: null, message: 'User not found' });
    expect(await snapshot()).toEqual(before);
    expect(await userRow(outsiderId)).toBeDefined();
  });

  it.each(['abc', '0', '1.5'])('refuses the id %s naming the field', async (id) => {
    const res = await remove(admin.token, id);

    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'id', message: expect.any(String) }]);
  });
});

describe('a deleted Admin', () => {
  it('loses access at once, while the remaining Admin keeps it', async () => {
    const second = await createUser(server.database.db, { companyId, isAdmin: true });
    const { token } = await signIn(server, second.email);
    await addTeamMember(server.database.db, { teamId, userId: second.id, roleId: ROLE.admin });

    expect((await remove(token, admin.id)).statusCode).toBe(200);

    expect((await me(admin.token)).statusCode).toBe(401);
    expect((await remove(admin.token, second.id)).statusCode).toBe(401);
    expect(await userRow(second.id)).toBeDefined();
  });
});
