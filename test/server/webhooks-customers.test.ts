import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMessages, type Webhook } from '../../src/api/contract/webhooks';
import { regions } from '../../server/db/catalog-schema';
import { webhookSubscriptions } from '../../server/db/webhook-schema';
import { toActivityEvent } from '../../server/domain/events/visibility';
import { CUSTOMERS_WALK } from '../../server/domain/webhooks/customer-events';
import type { EventRow } from '../../server/domain/events/hub';
import { startCustomersWorld, type CustomersWorld } from './support/customers-world';
import { catalogIds } from './support/vm-fixtures';

/**
 * A reseller's staff Admin subscribes to the events of all its customers at once (scope
 * `customers`): who may, and what such a webhook receives — every customer's events, those of a
 * company created or suspended since included, in id order, each naming its company; never the
 * staff company's own, another reseller's customers' or anyone else's.
 */

let w: CustomersWorld;
beforeAll(async () => {
  w = await startCustomersWorld();
}, 60_000);
afterAll(() => w?.close());

const webhookCount = async () => (await w.db.select().from(webhookSubscriptions)).length;

describe('who may subscribe to the customers’ events', () => {
  it.each([
    ['an ordinary company’s Admin', 'olga'],
    ['a customer’s Admin flagged as a reseller', 'ada'],
  ] as const)('%s: 400 naming scope, and nothing is created', async (_, who) => {
    const before = await webhookCount();
    expect(await w.createHook(who, '/refused', { scope: 'customers' })).toEqual({
      status: 400,
      body: {
        data: null,
        message: webhookMessages.customersScopeResellersOnly,
        errors: [{ field: 'scope', message: webhookMessages.customersScopeResellersOnly }],
      },
    });
    expect(await webhookCount()).toBe(before);
  });

  it('a reseller’s staff who is not an Admin: 403, as for any webhook', async () => {
    const res = await w.createHook('carl', '/refused', { scope: 'customers' });
    expect(res).toEqual({
      status: 403,
      body: { data: null, message: webhookMessages.adminsOnly },
    });
  });

  it('an unknown scope: 400 naming scope', async () => {
    const res = await w.createHook('rita', '/refused', { scope: 'everyone' });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.field)).toEqual(['scope']);
  });
});

describe('a customers-scoped webhook', () => {
  const HOOKS = {
    customers: '/rita/customers',
    own: '/rita/own',
    companyEvents: '/rita/company-events',
    other: '/bob/customers',
  };
  let firstNew = 0;
  let cobalt = 0;
  let regionName = '';

  beforeAll(async () => {
    const { a } = w.resellers;
    // Before the webhooks: nothing of this reaches them.
    await w.eventIn(w.customers.acme, 'before');

    const hooks = [
      await w.createHook('rita', HOOKS.customers, { scope: 'customers' }),
      await w.createHook('rita', HOOKS.own),
      await w.createHook('rita', HOOKS.companyEvents, {
        scope: 'customers',
        events: ['company.create', 'company.limits'],
      }),
      await w.createHook('bob', HOOKS.other, { scope: 'customers' }),
    ];
    for (const hook of hooks) expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    // The last of them, the staff company's: everything after it is new to the webhooks.
    firstNew = (await w.eventsOf([a.staffCompanyId])).at(-1)!.id;

    await w.eventIn(w.customers.acme, 'a1');
    await w.eventIn(a.staffCompanyId, 'staff-1');
    await w.eventIn(w.customers.bravo, 'b1');
    await w.eventIn(w.customers.borealis, 'r1');
    await w.eventIn(w.ordinary, 'o1');
    await w.eventIn(w.customers.acme, 'a2');
    // A customer created now, and one suspended now: covered as they are.
    const created = await w.call('rita', 'POST', '/reseller/companies/create', {
      name: 'Cobalt',
      admin: { email: 'cy@cobalt.test', firstName: 'Cy', lastName: 'Cobalt' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    cobalt = (created.body.data as { companyId: number }).companyId;
    const suspended = await w.call(
      'rita',
      'POST',
      `/reseller/companies/suspend/${w.customers.borealis}`,
    );
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    await w.eventIn(w.customers.borealis, 'r2');

    const { regionId } = await catalogIds(w.db);
    [{ name: regionName }] = (await w.db
      .select({ name: regions.name })
      .from(regions)
      .where(eq(regions.id, regionId))) as [{ name: string }];
    const limits = await w.call('rita', 'PUT', `/reseller/companies/limits/${w.customers.acme}`, {
      limits: [
        { resource: 'vms', regionId: null, max: 10 },
        { resource: 'vcpus', regionId, max: 16 },
      ],
    });
    expect(limits.status, JSON.stringify(limits.body)).toBe(200);
    // The same set again changes nothing: no event.
    await w.call('rita', 'PUT', `/reseller/companies/limits/${w.customers.acme}`, {
      limits: [
        { resource: 'vcpus', regionId, max: 16 },
        { resource: 'vms', regionId: null, max: 10 },
      ],
    });
    await w.eventIn(a.staffCompanyId, 'staff-2');
    await w.dispatcher.drain();
  });

  it('receives every event of the reseller’s customers since its creation, in id order, each naming its company', async () => {
    const expected = await w.eventsOf([w.customers.acme, w.customers.borealis, cobalt], firstNew);
    expect(expected.map((e) => e.action)).toEqual([
      'team.create',
      'team.create',
      'team.create',
      'company.create',
      'user.invite',
      'company.suspend',
      'team.create',
      'company.limits',
    ]);
    const got = w.delivered(HOOKS.customers);
    // Exactly the body of the activity log's event, and the company's id.
    expect(got).toEqual(
      expected.map((e) =>
        JSON.parse(
          JSON.stringify({ ...toActivityEvent(e.row as EventRow), companyId: e.companyId }),
        ),
      ),
    );
    const ids = got.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it('receives nothing of the staff company, of another reseller’s customers or of anyone else', () => {
    const companies = new Set(w.delivered(HOOKS.customers).map((event) => event.companyId));
    expect(companies).toEqual(new Set([w.customers.acme, w.customers.borealis, cobalt]));
    const names = w.delivered(HOOKS.customers).map((event) => event.subject.name);
    expect(names).not.toContain('staff-1');
    expect(names).not.toContain('b1');
    expect(names).not.toContain('o1');
    expect(names).not.toContain('before');
  });

  it('leaves the staff company’s own webhook with the staff company’s events, without a company id', () => {
    const own = w.delivered(HOOKS.own);
    expect(own.map((event) => event.subject.name)).toEqual(
      expect.arrayContaining(['staff-1', 'staff-2']),
    );
    expect(own.every((event) => !('companyId' in event))).toBe(true);
    expect(own.map((event) => event.subject.name)).not.toContain('a1');
  });

  it('gives another reseller’s such webhook its own customers’ events only', () => {
    expect(w.delivered(HOOKS.other).map((event) => [event.companyId, event.subject.name])).toEqual([
      [w.customers.bravo, 'b1'],
    ]);
  });

  it('sends company.create and company.limits, with who did it and what changed, to those who want them', () => {
    const rita = { type: 'user', id: w.ids.rita, name: 'Rita Reseller' };
    expect(
      w
        .delivered(HOOKS.companyEvents)
        .map(({ action, actor, subject, outcome, detail, companyId }) => ({
          action,
          actor,
          subject,
          outcome,
          detail,
          companyId,
        })),
    ).toEqual([
      {
        action: 'company.create',
        actor: rita,
        subject: { type: 'company', id: cobalt, name: 'Cobalt' },
        outcome: 'succeeded',
        detail: { source: 'console' },
        companyId: cobalt,
      },
      {
        action: 'company.limits',
        actor: rita,
        subject: { type: 'company', id: w.customers.acme, name: 'Acme' },
        outcome: 'succeeded',
        detail: { from: 'none', to: `10 VMs, 16 vCPUs in ${regionName}` },
        companyId: w.customers.acme,
      },
    ]);
  });

  it('is listed with its scope, and its creation is logged in the staff company naming the scope', async () => {
    const list = await w.call('rita', 'GET', '/webhooks/list');
    expect(list.status).toBe(200);
    expect(
      (list.body.data as Webhook[]).map((hook) => [new URL(hook.url).pathname, hook.scope]),
    ).toEqual([
      [HOOKS.customers, 'customers'],
      [HOOKS.own, 'company'],
      [HOOKS.companyEvents, 'customers'],
    ]);
    const created = (await w.eventsOf([w.resellers.a.staffCompanyId]))
      .filter((e) => e.action === 'webhook.create')
      .map((e) => e.row.detail);
    expect(created).toEqual([
      { events: '*', scope: 'customers' },
      { events: '*' },
      { events: 'company.create, company.limits', scope: 'customers' },
    ]);
  });
});

describe('a customers-scoped webhook among many other events', () => {
  it('steps past other companies’ events, however many, to its customers’ next one', async () => {
    const path = '/rita/busy-world';
    expect((await w.createHook('rita', path, { scope: 'customers' })).status).toBe(200);
    await w.eventIn(w.customers.acme, 'quiet-1');
    // More than the worker looks at in one step, twice over, none of them its customers'.
    await w.manyEventsIn(w.ordinary, 2 * CUSTOMERS_WALK + 50);
    await w.eventIn(w.customers.borealis, 'quiet-2');
    await w.dispatcher.drain();
    expect(w.delivered(path).map((event) => event.subject.name)).toEqual(['quiet-1', 'quiet-2']);
    // And the cursor is past them all: nothing is left for the worker to look at.
    expect(await w.dispatcher.runOnce()).toBe(0);
  });
});

describe('a company the operator’s import creates', () => {
  it('is company.create by the Operator in its own log, delivered to its reseller’s customers webhook', async () => {
    const path = '/rita/imports';
    expect(
      (await w.createHook('rita', path, { scope: 'customers', events: ['company.create'] })).status,
    ).toBe(200);
    const item = (externalId: string, name: string, email: string) => ({
      externalId,
      resellerExternalId: w.resellers.a.externalId,
      name,
      admin: { email, firstName: 'Imp', lastName: 'Orted' },
    });
    const first = await w.call('operator', 'POST', '/imports/company', {
      items: [
        item('imp-1', 'Imported One', 'one@imp.test'),
        item('imp-2', 'Imported Two', 'two@imp.test'),
      ],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // The same file again creates nothing: nothing more is logged.
    const again = await w.call('operator', 'POST', '/imports/company', {
      items: [
        item('imp-1', 'Imported One', 'one@imp.test'),
        item('imp-2', 'Imported Two', 'two@imp.test'),
      ],
    });
    expect(again.status).toBe(200);
    await w.dispatcher.drain();
    const ids = (first.body.data as { items: { id: number }[] }).items.map((i) => i.id);
    expect(
      w.delivered(path).map(({ action, actor, subject, detail, companyId }) => ({
        action,
        actor,
        subject,
        detail,
        companyId,
      })),
    ).toEqual(
      ['Imported One', 'Imported Two'].map((name, n) => ({
        action: 'company.create',
        actor: { type: 'operator', id: null, name: 'Operator' },
        subject: { type: 'company', id: ids[n], name },
        detail: { source: 'import' },
        companyId: ids[n],
      })),
    );
    // Logged first in the company's log, before its Admin's invitation.
    const log = await w.eventsOf([ids[0]!]);
    expect(log.map((e) => e.action)).toEqual(['company.create', 'user.invite']);
  });
});
