import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../src/api/contract/auth';
import { buildApp } from '../../server/app';
import { companies, distributors, resellers, users } from '../../server/db/schema';
import { SESSION_COOKIE } from '../../server/plugins/session-cookie';
import { startTestServer, type TestServer } from './support/harness';
import { lastMailTo, linkIn, mailsTo } from './support/mail';
import { createCompany, createUser, NEW_PASSWORD } from './support/seed';
import { bearer, signIn } from './support/sign-in';

const OPERATOR_TOKEN = 'imports-operator-token-0123456789abcdef';
const operator = bearer(OPERATOR_TOKEN);

let server: TestServer;
let log = '';
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

const fixture = (kind: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/imports/${kind}.json`, import.meta.url), 'utf8'));

const postImport = (kind: string, items: unknown[], headers: Record<string, string> = operator) =>
  server.app.inject({
    method: 'POST',
    url: `/api/v1/imports/${kind}`,
    headers,
    payload: { items },
  });

/** An import that must succeed; its `data`, once its e-mails have gone. */
async function imported(kind: string, items: unknown[]) {
  const res = await postImport(kind, items);
  expect(res.statusCode, res.body).toBe(200);
  await server.settled();
  return res.json().data as {
    created: number;
    updated: number;
    items: { externalId: string; id: number }[];
  };
}

const userByEmail = async (email: string) =>
  (await server.database.db.select().from(users).where(eq(users.email, email)))[0];

/** Follows the activation link of the last e-mail to the address, then signs in. */
async function activateAndSignIn(email: string) {
  const link = linkIn(lastMailTo(server, email));
  expect(link.pathname).toBe('/confirmNewUser');
  const token = link.searchParams.get('token')!;
  const id = Number(link.searchParams.get('id'));
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/v1/users/confirmEmail/${encodeURIComponent(token)}`,
    payload: { id, password: NEW_PASSWORD, firstName: 'Ada', lastName: 'Lovelace' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { token: session } = await signIn(server, email, { password: NEW_PASSWORD });
  const me = await server.app.inject({
    method: 'GET',
    url: '/api/v1/users/me',
    headers: bearer(session),
  });
  return { id, me: me.json().data };
}

const distributor = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  name: `Distributor ${externalId}`,
  email: `${externalId}@distributors.test`,
  ...extra,
});

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN }, { logStream, logLevel: 'info' });
});
afterAll(() => server.close());

describe('who may import', () => {
  const items = [distributor('auth-d')];
  const refused = { data: null, message: authMessages.operatorTokenRequired };

  it('refuses a request without a token, with a wrong token, or with a user session', async () => {
    const { company } = await createCompany(server.database.db);
    const user = await createUser(server.database.db, { companyId: company.id, isAdmin: true });
    const { token: session } = await signIn(server, user.email);

    const answers = [
      await postImport('distributer', items, {}),
      await postImport('distributer', items, bearer(`${OPERATOR_TOKEN}x`)),
      await postImport('distributer', items, bearer(session)),
      await postImport('distributer', items, {
        cookie: `${SESSION_COOKIE}=${session}`,
        origin: server.config.publicOrigin,
      }),
      await postImport('distributer', items, { authorization: OPERATOR_TOKEN }),
    ];

    for (const res of answers) {
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 401, body: refused });
    }
    const rows = await server.database.db
      .select()
      .from(distributors)
      .where(eq(distributors.externalId, 'auth-d'));
    expect(rows).toEqual([]);
  });

  it('refuses everyone when no OPERATOR_TOKEN is configured', async () => {
    // The same database and settings, only without the token.
    const unset = await buildApp({
      config: { ...server.config, operatorToken: undefined },
      db: server.database.db,
      mailer: { send: async () => {} },
      drivers: server.drivers,
      listen: server.database.listen,
    });
    try {
      for (const headers of [{}, operator]) {
        const res = await unset.inject({
          method: 'POST',
          url: '/api/v1/imports/distributer',
          headers,
          payload: { items },
        });
        expect({ status: res.statusCode, body: res.json() }).toEqual({
          status: 403,
          body: { data: null, message: authMessages.operatorTokenUnset },
        });
      }
      const rows = await server.database.db
        .select()
        .from(distributors)
        .where(eq(distributors.externalId, 'auth-d'));
      expect(rows).toEqual([]);
    } finally {
      await unset.close();
    }
  });
});

describe('the chain distributor -> reseller -> company (the example files)', () => {
  it('stores every value, e-mails the admins, and their console shows the branding', async () => {
    const distributorFile = fixture('distributer');
    const resellerFile = fixture('reseller');
    const companyFile = fixture('company');

    const d = await imported('distributer', distributorFile.items);
    const r = await imported('reseller', resellerFile.items);
    const c = await imported('company', companyFile.items);

    const db = server.database.db;
    const [dist] = await db.select().from(distributors).where(eq(distributors.id, d.items[0]!.id));
    expect(d).toEqual({
      created: 1,
      updated: 0,
      items: [{ externalId: 'dist-north', id: dist!.id }],
    });
    expect(dist).toMatchObject({ name: 'Northwind Distribution', email: 'ops@northwind.example' });

    const [reseller] = await db.select().from(resellers).where(eq(resellers.id, r.items[0]!.id));
    expect(r).toEqual({
      created: 1,
      updated: 0,
      items: [{ externalId: 'res-skyline', id: reseller!.id }],
    });
    expect(reseller).toMatchObject({
      externalId: 'res-skyline',
      distributorId: dist!.id,
      name: 'Skyline Hosting Ltd',
      email: 'staff@skyline.example',
      resellerName: 'Skyline Cloud',
      logoUrl: 'https://cdn.skyline.example/logo.svg',
      tabLogoUrl: 'https://cdn.skyline.example/favicon.png',
      orderUrlNewCustomer: 'https://orders.skyline.example/new-customer',
      orderUrlAccountChanges: 'https://orders.skyline.example/account-changes',
    });

    expect(c.created).toBe(2);
    expect(c.updated).toBe(0);
    expect(c.items.map((item) => item.externalId)).toEqual(['cust-acme', 'cust-globex']);
    const [acme] = await db.select().from(companies).where(eq(companies.id, c.items[0]!.id));
    const [globex] = await db.select().from(companies).where(eq(companies.id, c.items[1]!.id));
    expect(acme).toMatchObject({
      externalId: 'cust-acme',
      resellerId: reseller!.id,
      name: 'Acme Corporation',
      logoUrl: 'https://cdn.acme.example/logo.png',
      isResellerStaff: false,
    });
    expect(globex).toMatchObject({ name: 'Globex', logoUrl: null, resellerId: reseller!.id });

    // The admin waits for activation: no password, names from the file.
    const admin = await userByEmail('it@acme.example');
    expect(admin).toMatchObject({
      companyId: acme!.id,
      firstName: 'Ada',
      lastName: 'Acme',
      passwordHash: null,
      activatedAt: null,
      isAdmin: true,
      isReseller: false,
    });
    const mail = lastMailTo(server, 'it@acme.example');
    expect(mail.subject).toBe('Activate your Skyline Cloud account');
    expect(mail.text).toMatch(
      new RegExp(
        `http://console\\.test/confirmNewUser\\?token=[A-Za-z0-9_-]{43}&id=${admin!.id}\\b`,
      ),
    );

    const { me } = await activateAndSignIn('it@acme.example');
    expect(me).toMatchObject({
      email: 'it@acme.example',
      isAdmin: true,
      isReseller: false,
      companyName: 'Acme Corporation',
      resellerName: 'Skyline Cloud',
      resellerEmail: 'staff@skyline.example',
      logoUrl: 'https://cdn.acme.example/logo.png',
      tabLogoUrl: 'https://cdn.skyline.example/favicon.png',
      // A customer gets no order forms: they are the reseller's own.
      orderUrls: { newCustomer: null, accountChanges: null },
    });
    // Without its own logo a company shows its reseller's.
    const { me: globexAdmin } = await activateAndSignIn('admin@globex.example');
    expect(globexAdmin).toMatchObject({
      companyName: 'Globex',
      logoUrl: 'https://cdn.skyline.example/logo.svg',
    });
  });

  it('gives the reseller a staff company whose Admin has Order Services (isReseller)', async () => {
    const [reseller] = await server.database.db
      .select()
      .from(resellers)
      .where(eq(resellers.externalId, 'res-skyline'));
    const [staffCompany] = await server.database.db
      .select()
      .from(companies)
      .where(eq(companies.externalId, 'reseller:res-skyline'));
    expect(staffCompany).toMatchObject({
      resellerId: reseller!.id,
      name: 'Skyline Hosting Ltd',
      isResellerStaff: true,
    });
    expect(await userByEmail('staff@skyline.example')).toMatchObject({
      companyId: staffCompany!.id,
      isAdmin: true,
      isReseller: true,
      activatedAt: null,
    });

    const { me } = await activateAndSignIn('staff@skyline.example');
    expect(me).toMatchObject({
      isAdmin: true,
      isReseller: true,
      companyName: 'Skyline Hosting Ltd',
      resellerName: 'Skyline Cloud',
      // The staff company has no logo of its own: the reseller's shows.
      logoUrl: 'https://cdn.skyline.example/logo.svg',
      tabLogoUrl: 'https://cdn.skyline.example/favicon.png',
      orderUrls: {
        newCustomer: 'https://orders.skyline.example/new-customer',
        accountChanges: 'https://orders.skyline.example/account-changes',
      },
    });
  });

  it('changes nothing and sends nothing when the same files run again', async () => {
    const outbox = server.outbox().length;
    const before = {
      distributors: await server.database.db.select().from(distributors),
      resellers: await server.database.db.select().from(resellers),
      companies: await server.database.db.select().from(companies),
      users: await server.database.db.select().from(users),
    };

    for (const kind of ['distributer', 'reseller', 'company']) {
      const again = await imported(kind, fixture(kind).items);
      expect(again).toMatchObject({ created: 0, updated: 0 });
    }

    expect(server.outbox()).toHaveLength(outbox);
    expect({
      distributors: await server.database.db.select().from(distributors),
      resellers: await server.database.db.select().from(resellers),
      companies: await server.database.db.select().from(companies),
      users: await server.database.db.select().from(users),
    }).toEqual(before);
  });
});

describe('upserting by externalId', () => {
  beforeAll(async () => {
    await imported('distributer', [distributor('up-d1'), distributor('up-d2')]);
    await imported('reseller', [
      {
        externalId: 'up-r1',
        distributerExternalId: 'up-d1',
        name: 'Up One',
        email: 'staff@up-one.test',
        resellerName: 'Up Cloud',
        orderUrls: { newCustomer: 'https://up.test/new' },
      },
      { externalId: 'up-r2', distributerExternalId: 'up-d1', name: 'Up Two', email: 's@up2.test' },
    ]);
  });

  it('counts as updated only the items whose stored values changed', async () => {
    const first = await imported('distributer', [distributor('up-d1'), distributor('up-d2')]);
    const second = await imported('distributer', [
      distributor('up-d1'),
      distributor('up-d2', { name: 'Renamed', email: 'NEW@Distributors.TEST' }),
    ]);

    expect(second).toEqual({ ...first, created: 0, updated: 1 });
    const [row] = await server.database.db
      .select()
      .from(distributors)
      .where(eq(distributors.externalId, 'up-d2'));
    expect(row).toMatchObject({ name: 'Renamed', email: 'new@distributors.test' });
    expect(row!.updatedAt).toEqual(server.clock.now());
  });

  it('moves a reseller to another distributor and replaces its branding', async () => {
    const res = await imported('reseller', [
      {
        externalId: 'up-r1',
        distributerExternalId: 'up-d2',
        name: 'Up One',
        email: 'staff@up-one.test',
      },
      { externalId: 'up-r2', distributerExternalId: 'up-d1', name: 'Up Two', email: 's@up2.test' },
    ]);

    expect(res).toMatchObject({ created: 0, updated: 1 });
    const [[d2], [r1]] = await Promise.all([
      server.database.db.select().from(distributors).where(eq(distributors.externalId, 'up-d2')),
      server.database.db.select().from(resellers).where(eq(resellers.externalId, 'up-r1')),
    ]);
    expect(r1).toMatchObject({
      distributorId: d2!.id,
      resellerName: null,
      orderUrlNewCustomer: null,
      orderUrlAccountChanges: null,
    });
  });

  it("renames the reseller's staff company with the reseller", async () => {
    const res = await imported('reseller', [
      {
        externalId: 'up-r2',
        distributerExternalId: 'up-d1',
        name: 'Up Two Ltd',
        email: 's@up2.test',
      },
    ]);

    expect(res).toMatchObject({ created: 0, updated: 1 });
    const [staff] = await server.database.db
      .select()
      .from(companies)
      .where(eq(companies.externalId, 'reseller:up-r2'));
    expect(staff!.name).toBe('Up Two Ltd');
  });

  it('moves a company to another reseller, and a new admin e-mail adds an Admin', async () => {
    const company = (resellerExternalId: string, email: string) => ({
      externalId: 'up-c',
      resellerExternalId,
      name: 'Up Company',
      admin: { email, firstName: 'Uma', lastName: 'Up' },
    });
    const created = await imported('company', [company('up-r1', 'first@up-company.test')]);
    const moved = await imported('company', [company('up-r2', 'first@up-company.test')]);
    const withNewAdmin = await imported('company', [company('up-r2', 'second@up-company.test')]);

    expect(created).toMatchObject({ created: 1, updated: 0 });
    expect(moved).toEqual({ ...created, created: 0, updated: 1 });
    expect(withNewAdmin).toEqual({ ...created, created: 0, updated: 1 });
    const [row] = await server.database.db
      .select()
      .from(companies)
      .where(eq(companies.id, created.items[0]!.id));
    const [r2] = await server.database.db
      .select()
      .from(resellers)
      .where(eq(resellers.externalId, 'up-r2'));
    expect(row!.resellerId).toBe(r2!.id);
    const admins = await server.database.db
      .select({ email: users.email, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.companyId, row!.id))
      .orderBy(users.id);
    expect(admins).toEqual([
      { email: 'first@up-company.test', isAdmin: true },
      { email: 'second@up-company.test', isAdmin: true },
    ]);
    expect(mailsTo(server, 'first@up-company.test')).toHaveLength(1);
    expect(mailsTo(server, 'second@up-company.test')).toHaveLength(1);
  });
});

describe('the log', () => {
  it('has one line per import with its kind and counts, and never the operator token', async () => {
    log = '';
    await imported('distributer', [distributor('log-d1'), distributor('log-d2')]);

    const lines = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'import applied');
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'distributer', items: 2, created: 2, updated: 0 }),
    ]);
    expect(log).not.toContain(OPERATOR_TOKEN);
  });
});
