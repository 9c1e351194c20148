import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { resellerMessages } from '../../src/api/contract/reseller';
import { companies, teams, users } from '../../server/db/schema';
import { startResellerWorld, type ResellerWorld, type Who } from './support/reseller-world';

/**
 * Who reaches the reseller's console: its staff, for its own customers only. Anyone else gets the
 * 404 of a path that is not there, on every path; a company that is not one of the caller's
 * customers answers like an unknown id. And GET /reseller/companies/details/:id itself.
 */

let w: ResellerWorld;
beforeAll(async () => {
  w = await startResellerWorld();
}, 60_000);
afterAll(() => w?.close());

const NOT_THERE = { data: null, message: 'Not found' };
const NO_CUSTOMER = { data: null, message: resellerMessages.customerNotFound };

const newCustomer = (email: string) => ({
  name: 'Sneaky Co',
  admin: { email, firstName: 'Sam', lastName: 'Sneak' },
});

/** Every path, with a valid query or body: nothing but the caller decides the answer. */
const everyPath = (): [method: 'GET' | 'POST', url: string, payload?: object][] => [
  ['GET', '/reseller/companies/list?sortColumn=users'],
  ['GET', `/reseller/companies/details/${w.customers['Acme 2']}`],
  ['POST', '/reseller/companies/create', newCustomer('sneak@x.test')],
];

/** And with bad ones: whoever may not call a path must not learn what it would accept either. */
const everyPathBadly = (): ReturnType<typeof everyPath> => [
  ['GET', '/reseller/companies/list?rowsPerPage=1000'],
  ['GET', '/reseller/companies/details/abc'],
  ['POST', '/reseller/companies/create', { name: '' }],
];

const rowCounts = async () => {
  const [[c], [u]] = await Promise.all([
    w.db.select({ n: count() }).from(companies),
    w.db.select({ n: count() }).from(users),
  ]);
  return { companies: c!.n, users: u!.n };
};

async function makeToken(who: Who, access: 'read' | 'readWrite', teamIds?: number[]) {
  const res = await w.call(who, 'POST', '/apiTokens/create', {
    name: `${who} ${access}`,
    expiresAt: '2027-01-01T00:00:00Z',
    access,
    ...(teamIds ? { teamIds } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { secret: (res.body.data as { secret: string }).secret };
}

describe('callers who are not a reseller', () => {
  it.each(['customerAdmin', 'customerUser'] as const)(
    '%s gets 404 on every path, and nothing is written',
    async (who) => {
      const before = await rowCounts();
      for (const [method, url, payload] of [...everyPath(), ...everyPathBadly()]) {
        expect(await w.call(who, method, url, payload), `${method} ${url}`).toEqual({
          status: 404,
          body: NOT_THERE,
        });
      }
      expect(await rowCounts()).toEqual(before);
    },
  );

  it('a user flagged as a reseller outside a staff company gets 404 all the same', async () => {
    const before = await rowCounts();
    for (const [method, url, payload] of everyPath()) {
      expect(await w.call('misflagged', method, url, payload), `${method} ${url}`).toEqual({
        status: 404,
        body: NOT_THERE,
      });
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("a customer Admin's API tokens get 404 too, a read token even where it could not write", async () => {
    for (const access of ['read', 'readWrite'] as const) {
      const token = await makeToken('customerAdmin', access);
      for (const [method, url, payload] of [...everyPath(), ...everyPathBadly()]) {
        expect(await w.call(token, method, url, payload), `${access} ${method} ${url}`).toEqual({
          status: 404,
          body: NOT_THERE,
        });
      }
    }
  });

  it('without credentials, 401 as anywhere', async () => {
    const res = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/reseller/companies/list',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("companies that are not the caller's customers", () => {
  it.each([
    ["another reseller's customer", () => w.otherCustomer],
    ["the reseller's own staff company", () => w.resellers.a.staffCompanyId],
    ["another reseller's staff company", () => w.resellers.b.staffCompanyId],
    ['an unknown id', () => 2_000_000_000],
  ])('%s answers 404 Customer not found', async (_label, id) => {
    expect(await w.call('staff', 'GET', `/reseller/companies/details/${id()}`)).toEqual({
      status: 404,
      body: NO_CUSTOMER,
    });
  });

  it("the other reseller sees none of this reseller's customers", async () => {
    expect(
      await w.call('staffB', 'GET', `/reseller/companies/details/${w.customers['Acme 2']}`),
    ).toEqual({ status: 404, body: NO_CUSTOMER });
  });

  it('a malformed id names the field', async () => {
    const res = await w.call('staff', 'GET', '/reseller/companies/details/abc');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'id', message: expect.any(String) }]);
  });
});

describe("a reseller user's API tokens", () => {
  it('a read token lists and reads, and may not create', async () => {
    const token = await makeToken('staff', 'read');
    expect((await w.call(token, 'GET', '/reseller/companies/list')).status).toBe(200);
    const details = `/reseller/companies/details/${w.customers.Borealis}`;
    expect((await w.call(token, 'GET', details)).status).toBe(200);
    const before = await rowCounts();
    expect(
      await w.call(token, 'POST', '/reseller/companies/create', newCustomer('ro@x.test')),
    ).toEqual({ status: 403, body: { data: null, message: apiTokenMessages.readOnly } });
    expect(await rowCounts()).toEqual(before);
  });

  it('a read-write token creates', async () => {
    const token = await makeToken('staff', 'readWrite');
    const res = await w.call(token, 'POST', '/reseller/companies/create', {
      ...newCustomer('scripted@x.test'),
      name: 'Scripted Co',
    });
    expect(res.status).toBe(200);
    await w.server.settled();
  });

  it('a token narrowed to teams reaches no customer: 404 on every path', async () => {
    const [team] = await w.db
      .insert(teams)
      .values({ companyId: w.resellers.a.staffCompanyId, name: 'Sales' })
      .returning();
    const token = await makeToken('staff', 'readWrite', [team!.id]);
    for (const [method, url, payload] of [...everyPath(), ...everyPathBadly()]) {
      expect(await w.call(token, method, url, payload), `${method} ${url}`).toEqual({
        status: 404,
        body: NOT_THERE,
      });
    }
  });
});

describe('GET /reseller/companies/details/:id', () => {
  it("answers the row's figures and the Admins, invited ones included, by name", async () => {
    const acme = w.customers['Acme 2'];
    const res = await w.call('staff', 'GET', `/reseller/companies/details/${acme}`);

    expect(res).toEqual({
      status: 200,
      body: {
        message: 'OK',
        data: {
          id: acme,
          name: 'Acme 2',
          logoUrl: null,
          admins: 2,
          users: 3,
          vmsRunning: 2,
          vmsTotal: 3,
          vcpus: 20,
          ramGb: 62,
          publicIps: 2,
          // The world writes VMs without their history: reseller-usage tests count the hours.
          vmHoursThisMonth: 0,
          createdAt: '2026-01-05T09:00:00.000Z',
          state: 'active',
          suspendedAt: null,
          adminList: [
            { id: w.ids.customerAdmin, name: 'Ada Acme', email: 'ada@acme.test', activated: true },
            // No name until activation: the address stands in, and sorts as one.
            {
              id: w.ids.invitedAdmin,
              name: 'zoe@acme.test',
              email: 'zoe@acme.test',
              activated: false,
            },
          ],
          // Its reseller has set none (reseller-limits-put tests).
          limits: [],
        },
      },
    });
  });

  it('answers a customer with no Admin and nothing running', async () => {
    const res = await w.call('clerk', 'GET', `/reseller/companies/details/${w.customers.cobalt}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'cobalt',
      admins: 0,
      users: 0,
      vmsTotal: 0,
      publicIps: 0,
      adminList: [],
    });
  });
});
