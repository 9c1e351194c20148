import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { publicIps } from '../../../server/db/network-schema';
import { companies } from '../../../server/db/schema';
import { virtualMachines } from '../../../server/db/vm-schema';
import { startTestServer } from './harness';
import { createCompany, createUser, type UserOptions } from './seed';
import { bearer, signIn } from './sign-in';
import { catalogIds, insertVms } from './vm-fixtures';

/**
 * Two resellers, each with its staff company and staff, and reseller A's customers with known
 * figures (users, Admins, VMs of known sizes running, stopped and deleted, public addresses), as
 * the Customers list must count them. Reseller B has a customer of its own that A must never see.
 *
 * Reseller A's customers (sizes: Micro 2 vCPU / 4 GB, Extra Small 4 / 8, Small 6 / 10,
 * Medium 8 / 12, Large 12 / 48):
 *
 * | name    | created    | users (Admins) | VMs: running / total | vCPUs | RAM | IPs |
 * | Acme 2  | 2026-01-05 | 3 (2)          | 2 / 3 (+1 deleted)   | 20    | 62  | 2   |
 * | acme 10 | 2026-03-01 | 1 (1)          | 0 / 1                | 4     | 8   | 0   |
 * | Borealis| 2026-02-01 | 3 (1)          | 4 / 4                | 8     | 16  | 1   |
 * | cobalt  | 2026-04-01 | 0              | 0 / 0                | 0     | 0   | 0   |
 * | Delta   | 2026-01-20 | 1 (0)          | 0 / 0                | 0     | 0   | 0   |
 */

export const people = {
  /** An Admin of reseller A's staff company. */
  staff: 'rita@reseller-a.test',
  /** Reseller A's staff too, not an Admin: the Customers are every staff user's. */
  clerk: 'carl@reseller-a.test',
  staffB: 'bob@reseller-b.test',
  /** The Admin of A's customer Acme 2. */
  customerAdmin: 'ada@acme.test',
  customerUser: 'uma@acme.test',
  /** Flagged `isReseller` in a customer company (Borealis): not a reseller's staff all the same. */
  misflagged: 'mia@borealis.test',
} as const;
export type Who = keyof typeof people;

const customerNames = ['Acme 2', 'acme 10', 'Borealis', 'cobalt', 'Delta'] as const;
export type CustomerName = (typeof customerNames)[number];

/** A reseller with its staff company (as the reseller import makes it). */
async function seedReseller(db: Db, resellerName: string | null) {
  const { company, reseller } = await createCompany(db, { name: 'Staff', resellerName });
  await db
    .update(companies)
    .set({ isResellerStaff: true, externalId: `reseller:${reseller.externalId}` })
    .where(eq(companies.id, company.id));
  return { resellerId: reseller.id, staffCompanyId: company.id };
}

async function seedCustomer(db: Db, resellerId: number, name: string, createdAt: string) {
  const [row] = await db
    .insert(companies)
    .values({
      externalId: `c-${name}-${resellerId}`,
      resellerId,
      name,
      createdAt: new Date(createdAt),
    })
    .returning({ id: companies.id });
  return row!.id;
}

export async function startResellerWorld() {
  const server = await startTestServer();
  const db = server.database.db;
  const a = await seedReseller(db, 'Cloudy');
  const b = await seedReseller(db, null);

  const created: Record<CustomerName, string> = {
    'Acme 2': '2026-01-05T09:00:00.000Z',
    'acme 10': '2026-03-01T09:00:00.000Z',
    Borealis: '2026-02-01T09:00:00.000Z',
    cobalt: '2026-04-01T09:00:00.000Z',
    Delta: '2026-01-20T09:00:00.000Z',
  };
  const customers = {} as Record<CustomerName, number>;
  for (const name of customerNames) {
    customers[name] = await seedCustomer(db, a.resellerId, name, created[name]);
  }
  const otherCustomer = await seedCustomer(db, b.resellerId, 'Acme B', '2026-01-01T00:00:00Z');

  const user = (companyId: number, email: string, more: Omit<UserOptions, 'companyId'> = {}) =>
    createUser(db, { ...more, companyId, email });
  const ids = {
    staff: (
      await user(a.staffCompanyId, people.staff, {
        firstName: 'Rita',
        lastName: 'Reseller',
        isAdmin: true,
        isReseller: true,
      })
    ).id,
    clerk: (await user(a.staffCompanyId, people.clerk, { isReseller: true })).id,
    staffB: (
      await user(b.staffCompanyId, people.staffB, {
        isAdmin: true,
        isReseller: true,
      })
    ).id,
    customerAdmin: (
      await user(customers['Acme 2'], people.customerAdmin, {
        firstName: 'Ada',
        lastName: 'Acme',
        isAdmin: true,
      })
    ).id,
    /** Invited, not activated yet: still an Admin of the company. */
    invitedAdmin: (
      await user(customers['Acme 2'], 'zoe@acme.test', {
        firstName: '',
        lastName: '',
        isAdmin: true,
        password: null,
      })
    ).id,
    customerUser: (await user(customers['Acme 2'], people.customerUser)).id,
    acme10Admin: (await user(customers['acme 10'], 'al@acme10.test', { isAdmin: true })).id,
    misflagged: (
      await user(customers.Borealis, people.misflagged, {
        isAdmin: true,
        isReseller: true,
      })
    ).id,
  };
  await user(customers.Borealis, 'bo@borealis.test');
  await user(customers.Borealis, 'bea@borealis.test');
  await user(customers.Delta, 'dan@delta.test');
  await user(otherCustomer, 'ben@acme-b.test', { isAdmin: true });

  const vm = (
    company: number,
    name: string,
    configurationId: number,
    status: 'Running' | 'Stopped' = 'Running',
  ) => ({ companyId: company, teamId: null, name, configurationId, status });
  const acme = customers['Acme 2'];
  const [, , , deleted] = await insertVms(db, [
    vm(acme, 'small', 3),
    vm(acme, 'micro', 1),
    vm(acme, 'large', 5, 'Stopped'),
    vm(acme, 'gone', 4),
    vm(customers['acme 10'], 'xs', 2, 'Stopped'),
    ...[1, 2, 3, 4].map((n) => vm(customers.Borealis, `m${n}`, 1)),
    vm(otherCustomer, 'theirs', 6),
    vm(a.staffCompanyId, 'staff-vm', 6),
  ]);
  await db
    .update(virtualMachines)
    .set({ deletedAt: new Date('2026-06-01T00:00:00Z') })
    .where(eq(virtualMachines.id, deleted!.id));
  const { regionId } = await catalogIds(db);
  const address = (companyId: number, n: number, status: 'Active' | 'Releasing' = 'Active') => ({
    regionId,
    companyId,
    address: `203.0.113.${n}`,
    status,
  });
  await db
    .insert(publicIps)
    .values([
      address(acme, 10),
      address(acme, 11, 'Releasing'),
      address(customers.Borealis, 12),
      address(otherCustomer, 13),
      address(a.staffCompanyId, 14),
    ]);

  const tokens = {} as Record<Who, string>;
  for (const who of Object.keys(people) as Who[]) {
    ({ token: tokens[who] } = await signIn(server, people[who]));
  }

  /** One API call with a bearer: a session of `who`, or an API token's secret. */
  async function call(
    who: Who | { secret: string },
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ) {
    const res = await server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(typeof who === 'string' ? tokens[who] : who.secret),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  return {
    server,
    db,
    resellers: { a, b },
    customers,
    otherCustomer,
    ids,
    call,
    close: () => server.close(),
  };
}

export type ResellerWorld = Awaited<ReturnType<typeof startResellerWorld>>;
