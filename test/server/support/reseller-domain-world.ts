import { eq } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';
import { companies, resellerDomains } from '../../../server/db/schema';
import { startTestServer } from './harness';
import { createCompany, createUser } from './seed';
import { bearer, signIn } from './sign-in';

/**
 * Two resellers with their staff companies (as the reseller import makes them) and a customer of
 * the first; a company of the product's own, under a reseller with no domain; and a DNS the test
 * writes TXT records into (`records`), which notes each name it is asked about (`asked`) and
 * fails on the names in `unreachable`.
 */

export const OPERATOR_TOKEN = 'domains-operator-token-0123456789abcdef';
/** The test servers' PUBLIC_URL host (support/harness.ts). */
export const PRODUCT_HOST = 'console.test';

export const people = {
  /** An Admin of reseller A's staff company. */
  staff: 'rita@reseller-a.test',
  /** Reseller A's staff, not an Admin. */
  clerk: 'carl@reseller-a.test',
  staffB: 'bob@reseller-b.test',
  /** The Admin of A's customer. */
  customerAdmin: 'ada@acme.test',
  customerUser: 'uma@acme.test',
  /** Flagged `isReseller` in a customer company: not a reseller's staff all the same. */
  misflagged: 'mia@acme.test',
  /** The Admin of a company whose reseller has no domain (the product's own customers). */
  plainAdmin: 'pat@plain.test',
} as const;
export type Who = keyof typeof people;

async function seedReseller(db: Db, options: { resellerName: string | null; email: string }) {
  const { company, reseller } = await createCompany(db, {
    name: 'Staff',
    resellerName: options.resellerName,
    resellerEmail: options.email,
  });
  await db
    .update(companies)
    .set({ isResellerStaff: true, externalId: `reseller:${reseller.externalId}` })
    .where(eq(companies.id, company.id));
  return { resellerId: reseller.id, externalId: reseller.externalId, staffCompanyId: company.id };
}

export async function startDomainWorld(
  options: { env?: Record<string, string>; consoleDir?: string } = {},
) {
  const records = new Map<string, string[][]>();
  /** Names whose lookup fails as a dead name server's does. */
  const unreachable = new Set<string>();
  const asked: string[] = [];
  const server = await startTestServer(
    { OPERATOR_TOKEN, ...options.env },
    {
      consoleDir: options.consoleDir,
      txtLookup: async (name) => {
        asked.push(name);
        if (unreachable.has(name)) {
          throw Object.assign(new Error(`queryTxt ETIMEOUT ${name}`), { code: 'ETIMEOUT' });
        }
        return records.get(name) ?? [];
      },
    },
  );
  const db = server.database.db;
  const a = await seedReseller(db, { resellerName: 'Cloudy', email: 'help@cloudy.test' });
  const b = await seedReseller(db, { resellerName: null, email: 'help@reseller-b.test' });
  const [customer] = await db
    .insert(companies)
    .values({ externalId: `acme-${a.resellerId}`, resellerId: a.resellerId, name: 'Acme' })
    .returning({ id: companies.id });
  const customerId = customer!.id;
  const plain = await createCompany(db, { name: 'Plain Co' });

  await createUser(db, {
    companyId: a.staffCompanyId,
    email: people.staff,
    isAdmin: true,
    isReseller: true,
  });
  await createUser(db, { companyId: a.staffCompanyId, email: people.clerk, isReseller: true });
  await createUser(db, {
    companyId: b.staffCompanyId,
    email: people.staffB,
    isAdmin: true,
    isReseller: true,
  });
  await createUser(db, { companyId: customerId, email: people.customerAdmin, isAdmin: true });
  await createUser(db, { companyId: customerId, email: people.customerUser });
  await createUser(db, {
    companyId: customerId,
    email: people.misflagged,
    isAdmin: true,
    isReseller: true,
  });
  await createUser(db, { companyId: plain.company.id, email: people.plainAdmin, isAdmin: true });

  const tokens = new Map<Who, string>();
  async function tokenOf(who: Who) {
    if (!tokens.has(who)) tokens.set(who, (await signIn(server, people[who])).token);
    return tokens.get(who)!;
  }

  /** One API call as `who`, or with an API token's secret. */
  async function call(
    who: Who | { secret: string },
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object,
  ) {
    const secret = typeof who === 'string' ? await tokenOf(who) : who.secret;
    const res = await server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(secret),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  /** A domain straight into the table, as an import or an earlier save left it. */
  async function addDomain(
    resellerId: number,
    host: string,
    source: 'import' | 'settings' = 'import',
  ) {
    await db.insert(resellerDomains).values({ host, resellerId, source });
  }

  return {
    server,
    db,
    resellers: { a, b },
    customerId,
    records,
    unreachable,
    asked,
    call,
    addDomain,
    close: () => server.close(),
  };
}

export type DomainWorld = Awaited<ReturnType<typeof startDomainWorld>>;
