import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '../../src/api/contract/activity';
import { resellerMessages } from '../../src/api/contract/reseller';
import { teamMessages } from '../../src/api/contract/teams';
import { createTeam } from './support/seed';
import { startCustomersWorld, type CustomersWorld } from './support/customers-world';

/**
 * `GET /reseller/companies/activity/:id`: a customer's activity for its reseller's staff, exactly
 * as the customer's Admins read it at `GET /activity/list`; nobody else's.
 */

let w: CustomersWorld;
let bravoTeam: number;
beforeAll(async () => {
  w = await startCustomersWorld();
  await w.eventIn(w.customers.acme, 'first');
  await w.eventIn(w.customers.acme, 'second');
  await w.eventIn(w.customers.bravo, 'theirs');
  const limits = await w.call('rita', 'PUT', `/reseller/companies/limits/${w.customers.acme}`, {
    limits: [{ resource: 'vms', regionId: null, max: 3 }],
  });
  expect(limits.status, JSON.stringify(limits.body)).toBe(200);
  bravoTeam = (await createTeam(w.db, { companyId: w.customers.bravo })).id;
}, 60_000);
afterAll(() => w?.close());

const activityOf = (companyId: number | string, query = '') =>
  `/reseller/companies/activity/${companyId}${query}`;
const NO_CUSTOMER = {
  status: 404,
  body: { data: null, message: resellerMessages.customerNotFound },
};
const NOT_THERE = { status: 404, body: { data: null, message: 'Not found' } };

describe('a reseller’s staff', () => {
  it.each([
    ['', 'newest first'],
    ['?sortDescending=false&rowsPerPage=2&page=2', 'paged, oldest first'],
    ['?subjectType=company', 'filtered'],
  ])('read the customer’s activity as its Admin does (%s: %s)', async (query) => {
    const theirs = await w.call('rita', 'GET', activityOf(w.customers.acme, query));
    const adminsOwn = await w.call('ada', 'GET', `/activity/list${query}`);
    expect(theirs.status).toBe(200);
    expect(theirs).toEqual(adminsOwn);
  });

  it('see the limits they set, by whom and what changed', async () => {
    const res = await w.call('rita', 'GET', activityOf(w.customers.acme, '?subjectType=company'));
    expect((res.body.data as ActivityPage).data).toEqual([
      expect.objectContaining({
        action: 'company.limits',
        actor: { type: 'user', id: w.ids.rita, name: 'Rita Reseller' },
        subject: { type: 'company', id: w.customers.acme, name: 'Acme' },
        outcome: 'succeeded',
        detail: { from: 'none', to: '3 VMs' },
      }),
    ]);
  });

  it('who are not Admins read it too, as they see the Customers', async () => {
    const res = await w.call('carl', 'GET', activityOf(w.customers.acme));
    expect(res.status).toBe(200);
    // After them, Ada's sign-in from a new address.
    expect((res.body.data as ActivityPage).data.map((e) => e.subject.name).slice(0, 3)).toEqual([
      'Acme',
      'second',
      'first',
    ]);
  });
});

describe('isolation', () => {
  it('another reseller’s customer, the staff company itself and an unknown id: 404 alike', async () => {
    for (const id of [w.customers.bravo, w.resellers.a.staffCompanyId, 999_999]) {
      expect(await w.call('rita', 'GET', activityOf(id)), `company ${id}`).toEqual(NO_CUSTOMER);
    }
    expect(await w.call('bob', 'GET', activityOf(w.customers.acme))).toEqual(NO_CUSTOMER);
  });

  it('a subject of another company in the filter: 404, as at /activity/list', async () => {
    expect(
      await w.call(
        'rita',
        'GET',
        activityOf(w.customers.acme, `?subjectType=team&subjectId=${bravoTeam}`),
      ),
    ).toEqual({ status: 404, body: { data: null, message: teamMessages.notFound } });
  });

  it('anyone who is not a reseller’s staff: the 404 of a path that is not there', async () => {
    for (const who of ['olga', 'ada'] as const) {
      expect(await w.call(who, 'GET', activityOf(w.customers.acme)), who).toEqual(NOT_THERE);
    }
    // Bad input or not: nothing tells them what the path would take.
    expect(await w.call('olga', 'GET', activityOf('abc', '?rowsPerPage=0'))).toEqual(NOT_THERE);
  });
});

describe('bad input', () => {
  it.each([
    ['abc', '', 'id'],
    [0, '', 'id'],
    ['ACME', '?rowsPerPage=0', 'rowsPerPage'],
    ['ACME', '?from=yesterday', 'from'],
    ['ACME', '?subjectType=planet', 'subjectType'],
  ])('%s%s: 400 naming %s', async (id, query, field) => {
    const res = await w.call(
      'rita',
      'GET',
      activityOf(id === 'ACME' ? w.customers.acme : id, query),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((error) => error.field)).toEqual([field]);
  });
});
