import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resellerMessages } from '../../src/api/contract/reseller';
import { messages } from '../../src/api/contract/validation';
import { companies } from '../../server/db/schema';
import { lastMailTo, linkIn, mailsTo } from './support/mail';
import { startResellerWorld, type ResellerWorld } from './support/reseller-world';
import { NEW_PASSWORD } from './support/seed';
import { signIn } from './support/sign-in';

/** POST /reseller/companies/create: the company, its first Admin and their activation e-mail. */

let w: ResellerWorld;
beforeAll(async () => {
  w = await startResellerWorld();
}, 60_000);
afterAll(() => w?.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Newco Labs',
  logoUrl: 'https://cdn.newco.test/logo.png',
  admin: { email: 'Boss@Newco.test', firstName: 'Bea', lastName: 'Boss' },
  ...overrides,
});

const create = (payload: object) => w.call('staff', 'POST', '/reseller/companies/create', payload);

const companyCount = async () => (await w.db.select({ n: count() }).from(companies))[0]!.n;

describe('a new customer', () => {
  let companyId: number;

  beforeAll(async () => {
    const res = await create(body());
    expect(res).toEqual({
      status: 200,
      body: { data: { companyId: expect.any(Number) }, message: resellerMessages.customerCreated },
    });
    companyId = res.body.data.companyId;
    await w.server.settled();
  });

  it("is a company of the caller's reseller, with an externalId no import can take", async () => {
    const [row] = await w.db.select().from(companies).where(eq(companies.id, companyId));
    expect(row).toMatchObject({
      resellerId: w.resellers.a.resellerId,
      name: 'Newco Labs',
      logoUrl: 'https://cdn.newco.test/logo.png',
      isResellerStaff: false,
    });
    expect(row!.externalId).toMatch(/^customer:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  });

  it('is in the list and its page, with its Admin waiting for activation', async () => {
    const list = await w.call('staff', 'GET', '/reseller/companies/list?search=newco');
    expect(list.body.data.data).toEqual([
      expect.objectContaining({ id: companyId, name: 'Newco Labs', admins: 1, users: 1 }),
    ]);
    const details = await w.call('staff', 'GET', `/reseller/companies/details/${companyId}`);
    expect(details.body.data.adminList).toEqual([
      { id: expect.any(Number), name: 'Bea Boss', email: 'boss@newco.test', activated: false },
    ]);
  });

  it("sends the Admin the activation e-mail in the reseller's brand", () => {
    const mails = mailsTo(w.server, 'boss@newco.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Activate your Cloudy account');
    expect(mails[0]!.text).toMatch(/http:\/\/console\.test\/confirmNewUser\?token=\S+&id=\d+/);
  });

  it('lets the Admin activate the account, sign in and see who invited them', async () => {
    const link = linkIn(lastMailTo(w.server, 'boss@newco.test'));
    const token = link.searchParams.get('token')!;
    const id = Number(link.searchParams.get('id'));
    const activated = await w.server.app.inject({
      method: 'POST',
      url: `/api/v1/users/confirmEmail/${encodeURIComponent(token)}`,
      payload: { id, password: NEW_PASSWORD, firstName: 'Bea', lastName: 'Boss' },
    });
    expect(activated.statusCode).toBe(200);

    const session = await signIn(w.server, 'boss@newco.test', { password: NEW_PASSWORD });
    expect(session.user).toMatchObject({
      id,
      isAdmin: true,
      isReseller: false,
      companyName: 'Newco Labs',
      logoUrl: 'https://cdn.newco.test/logo.png',
      resellerName: 'Cloudy',
    });
    const history = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/activity/list?sortDescending=false',
      headers: { authorization: `Bearer ${session.token}` },
    });
    // The company's history begins with its creation and its Admin's invitation, both by the
    // reseller's user.
    const [first, second] = history.json().data.data as { action: string }[];
    expect(first).toMatchObject({
      action: 'company.create',
      actor: { type: 'user', id: w.ids.staff, name: 'Rita Reseller' },
      subject: { type: 'company', name: 'Newco Labs' },
      detail: { source: 'console' },
    });
    expect(second).toMatchObject({
      action: 'user.invite',
      actor: { type: 'user', id: w.ids.staff, name: 'Rita Reseller' },
      subject: { type: 'user', id, name: 'Bea Boss' },
      detail: { email: 'boss@newco.test', role: 'Admin' },
    });
    // The customer's Admin is no reseller: the reseller's console is not there for them.
    const theirs = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/reseller/companies/list',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('takes no logo: absent, empty or null', async () => {
    for (const [n, logoUrl] of [undefined, '', null].entries()) {
      const res = await create(
        body({ name: `No logo ${n}`, logoUrl, admin: { ...body().admin, email: `nl${n}@x.test` } }),
      );
      expect(res.status).toBe(200);
      const [row] = await w.db
        .select({ logoUrl: companies.logoUrl })
        .from(companies)
        .where(eq(companies.id, res.body.data.companyId));
      expect(row).toEqual({ logoUrl: null });
    }
  });
});

describe('bad input', () => {
  const refused = async (payload: object, field: string, message: string | RegExp) => {
    const before = await companyCount();
    const res = await create(payload);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual([
      { field, message: typeof message === 'string' ? message : expect.stringMatching(message) },
    ]);
    expect(await companyCount()).toBe(before);
  };

  it('names the field', async () => {
    await refused(body({ name: '   ' }), 'name', resellerMessages.nameRequired);
    await refused(body({ name: 'x'.repeat(201) }), 'name', resellerMessages.nameTooLong);
    await refused(
      body({ logoUrl: 'ftp://cdn.test/l.png' }),
      'logoUrl',
      resellerMessages.logoUrlFormat,
    );
    await refused(body({ logoUrl: 'not a url' }), 'logoUrl', resellerMessages.logoUrlFormat);
    await refused(
      body({ admin: { ...body().admin, email: 'not-an-address' } }),
      'admin.email',
      messages.emailFormat,
    );
    await refused(
      body({ admin: { ...body().admin, firstName: '' } }),
      'admin.firstName',
      messages.firstNameRequired,
    );
    await refused({ name: 'No admin' }, 'admin', /./);
  });

  it('refuses an e-mail any user already signs in with, whatever its case', async () => {
    // Another reseller's staff, and a user of one of this reseller's customers.
    await w.server.settled();
    for (const email of ['BOB@reseller-b.test', 'uma@acme.test']) {
      const outbox = w.server.outbox().length;
      await refused(
        body({ admin: { ...body().admin, email } }),
        'admin.email',
        resellerMessages.emailTaken,
      );
      await w.server.settled();
      expect(w.server.outbox()).toHaveLength(outbox);
    }
  });

  it('creates one customer of two asking for the same new Admin at once', async () => {
    const before = await companyCount();
    const payload = body({ admin: { ...body().admin, email: 'twice@race.test' } });
    const answers = await Promise.all([create(payload), create(payload)]);

    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(answers.find((res) => res.status === 400)!.body.errors).toEqual([
      { field: 'admin.email', message: resellerMessages.emailTaken },
    ]);
    expect(await companyCount()).toBe(before + 1);
  });
});

describe('who may create', () => {
  it('any staff user of the reseller', async () => {
    const res = await w.call('clerk', 'POST', '/reseller/companies/create', {
      ...body({ name: 'By the clerk' }),
      admin: { ...body().admin, email: 'clerk-made@x.test' },
    });
    expect(res.status).toBe(200);
  });
});
