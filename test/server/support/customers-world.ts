import { asc, eq, inArray } from 'drizzle-orm';
import type { ActivityEvent } from '../../../src/api/contract/activity';
import type { Db } from '../../../server/db/client';
import { events } from '../../../server/db/event-schema';
import { companies } from '../../../server/db/schema';
import { recordEvent } from '../../../server/domain/events/record';
import { startTestServer } from './harness';
import { createCompany, createUser } from './seed';
import { bearer, signIn } from './sign-in';
import { startReceiver, testWebhookDispatcher, type Receiver } from './webhook-world';

/**
 * Two resellers, each with its staff company, and their customers, for what a reseller's staff
 * see of all its customers at once (a customers-scoped webhook, a customer's activity):
 *
 * - reseller A: staff Admin Rita and staff clerk Carl (not an Admin); customers Acme and Borealis;
 * - reseller B: staff Admin Bob; customer Bravo;
 * - an ordinary company with its Admin Olga, and A's customer Acme's Admin Ada, flagged
 *   `isReseller` by mistake: neither is a reseller's staff.
 *
 * Plain HTTP to 127.0.0.1 is allowed (the receiver), and a delivery worker is driven by hand.
 */

export const people = {
  rita: 'rita@reseller-a.test',
  carl: 'carl@reseller-a.test',
  bob: 'bob@reseller-b.test',
  olga: 'olga@ordinary.test',
  ada: 'ada@acme.test',
} as const;
export type Who = keyof typeof people;

export const OPERATOR_TOKEN = 'customers-operator-token-0123456789abcdef';

/** A reseller with its staff company (as the reseller import makes it). */
async function seedReseller(db: Db, tag: string) {
  const { company, reseller } = await createCompany(db, { name: `Staff ${tag}` });
  await db
    .update(companies)
    .set({ isResellerStaff: true, externalId: `reseller:${reseller.externalId}` })
    .where(eq(companies.id, company.id));
  return { resellerId: reseller.id, externalId: reseller.externalId, staffCompanyId: company.id };
}

async function seedCustomer(db: Db, resellerId: number, name: string) {
  const [row] = await db
    .insert(companies)
    .values({ externalId: `c-${name}-${resellerId}`, resellerId, name })
    .returning({ id: companies.id });
  return row!.id;
}

export async function startCustomersWorld() {
  const server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true', OPERATOR_TOKEN });
  const db = server.database.db;
  const a = await seedReseller(db, 'A');
  const b = await seedReseller(db, 'B');
  const customers = {
    acme: await seedCustomer(db, a.resellerId, 'Acme'),
    borealis: await seedCustomer(db, a.resellerId, 'Borealis'),
    bravo: await seedCustomer(db, b.resellerId, 'Bravo'),
  };
  const { company: ordinary } = await createCompany(db, { name: 'Ordinary' });

  const staff = { isAdmin: true, isReseller: true };
  const ids = {
    rita: (
      await createUser(db, {
        companyId: a.staffCompanyId,
        email: people.rita,
        firstName: 'Rita',
        lastName: 'Reseller',
        ...staff,
      })
    ).id,
    carl: (
      await createUser(db, { companyId: a.staffCompanyId, email: people.carl, isReseller: true })
    ).id,
    bob: (await createUser(db, { companyId: b.staffCompanyId, email: people.bob, ...staff })).id,
    olga: (await createUser(db, { companyId: ordinary.id, email: people.olga, isAdmin: true })).id,
    ada: (await createUser(db, { companyId: customers.acme, email: people.ada, ...staff })).id,
  };
  const tokens = {} as Record<Who, string>;
  for (const who of Object.keys(people) as Who[]) {
    ({ token: tokens[who] } = await signIn(server, people[who], { rememberMe: true }));
  }

  async function call(
    who: Who | 'operator',
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) {
    const res = await server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(who === 'operator' ? OPERATOR_TOKEN : tokens[who]),
      ...(payload ? { payload } : {}),
    });
    return {
      status: res.statusCode,
      body: res.json() as {
        data: unknown;
        message: string;
        errors?: { field: string; message: string }[];
      },
    };
  }

  /** One event in the company's log, committed on its own (a team created, say). */
  async function eventIn(companyId: number, name: string) {
    await db.transaction((tx) =>
      recordEvent(tx, {
        companyId,
        actor: { type: 'operator', id: null, name: 'Operator' },
        subject: { type: 'team', id: 1, name },
        action: 'team.create',
        outcome: 'succeeded',
        at: server.clock.now(),
      }),
    );
  }

  /** `count` events in the company's log, committed at once (a busy company). */
  async function manyEventsIn(companyId: number, count: number) {
    await db.insert(events).values(
      Array.from({ length: count }, (_, n) => ({
        companyId,
        occurredAt: server.clock.now(),
        actorType: 'system' as const,
        actorName: 'System',
        subjectType: 'vm' as const,
        subjectId: n + 1,
        subjectName: `busy-${n + 1}`,
        action: 'vm.status' as const,
        outcome: 'observed' as const,
      })),
    );
  }

  /** The companies' events after an id, as the activity log answers them, in id order. */
  async function eventsOf(companyIds: number[], after = 0) {
    const rows = await db
      .select()
      .from(events)
      .where(inArray(events.companyId, companyIds))
      .orderBy(asc(events.seq));
    return rows
      .filter((row) => row.seq! > after)
      .map((row) => ({ id: row.seq!, companyId: row.companyId, action: row.action, row }));
  }

  const receiver: Receiver = await startReceiver();
  const dispatcher = testWebhookDispatcher(server, { timeoutMs: 5_000 });

  /** A webhook of `who`'s company on the receiver's path; answers the call's result. */
  const createHook = (who: Who, path: string, body: { events?: string[]; scope?: string } = {}) =>
    call(who, 'POST', '/webhooks/create', {
      url: `http://127.0.0.1:${receiver.port}${path}`,
      events: body.events ?? ['*'],
      ...(body.scope ? { scope: body.scope } : {}),
    });

  /** What the receiver got on a path, as events (and the company a customers' delivery names). */
  const delivered = (path: string) =>
    receiver.received
      .filter((r) => r.url === path)
      .map((r) => JSON.parse(r.body) as ActivityEvent & { companyId?: number });

  return {
    server,
    db,
    resellers: { a, b },
    customers,
    ordinary: ordinary.id,
    ids,
    call,
    eventIn,
    manyEventsIn,
    eventsOf,
    receiver,
    dispatcher,
    createHook,
    delivered,
    async close() {
      await receiver.close();
      await server.close();
    },
  };
}

export type CustomersWorld = Awaited<ReturnType<typeof startCustomersWorld>>;
