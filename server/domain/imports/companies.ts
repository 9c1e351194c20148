import { eq, inArray } from 'drizzle-orm';
import { companyItem } from '../../../src/api/contract/imports';
import type { Tx } from '../../db/client';
import { companies, resellers } from '../../db/schema';
import { OPERATOR, type Actor } from '../events/actor';
import { recordEvent } from '../events/record';
import { addAdmins, checkAccountEmails, findAccounts } from './accounts';
import { combine, Tally, upsertAll, type KindOutcome, type Upsert } from './outcome';
import { importMessages, parseItems } from './validate';

/** The externalId of a reseller's own company, where its staff accounts live. */
export const STAFF_COMPANY_PREFIX = 'reseller:';
/**
 * The externalId of a company a reseller created in its console (`customer:` and a random UUID):
 * kept out of the imports so that no file can take one over by naming it.
 */
export const CONSOLE_CUSTOMER_PREFIX = 'customer:';

/** Resellers' ids by externalId, for the items that name one. */
export async function resellerIds(tx: Tx, externalIds: readonly string[]) {
  if (externalIds.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ id: resellers.id, externalId: resellers.externalId })
    .from(resellers)
    .where(inArray(resellers.externalId, [...new Set(externalIds)]));
  return new Map(rows.map((row) => [row.externalId, row.id]));
}

type CompanyRow = typeof companies.$inferSelect;
type CompanyValues = Pick<CompanyRow, 'resellerId' | 'name'> & Partial<CompanyRow>;

/** Customer companies and resellers' staff companies alike. */
export function upsertCompanies(
  tx: Tx,
  entries: readonly Upsert<CompanyRow, CompanyValues>[],
  now: Date,
) {
  return upsertAll(entries, {
    insert: (batch) =>
      tx
        .insert(companies)
        .values(
          batch.map(({ key, values }) => ({
            externalId: key,
            ...values,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ key: companies.externalId, id: companies.id }),
    update: (id, values) =>
      tx
        .update(companies)
        .set({ ...values, updatedAt: now })
        .where(eq(companies.id, id)),
  });
}

/**
 * `company.create` in the new company's own log (its Admins see it; its reseller's staff read that
 * log and its customers' webhooks get it): by the reseller's user who created it in the console,
 * or by the Operator for an import.
 */
export async function recordCompanyCreated(
  tx: Tx,
  company: { id: number; name: string },
  actor: Actor,
  at: Date,
): Promise<void> {
  await recordEvent(tx, {
    companyId: company.id,
    actor,
    subject: { type: 'company', id: company.id, name: company.name },
    action: 'company.create',
    outcome: 'succeeded',
    detail: { source: actor.type === 'operator' ? 'import' : 'console' },
    at,
  });
}

export async function companiesByExternalId(tx: Tx, externalIds: readonly string[]) {
  if (externalIds.length === 0) return new Map<string, CompanyRow>();
  const rows = await tx.select().from(companies).where(inArray(companies.externalId, externalIds));
  return new Map(rows.map((row) => [row.externalId, row]));
}

/**
 * Customer companies by externalId (name, logo, reseller), each with its Admin: a new e-mail
 * becomes a new Admin waiting for activation.
 */
export async function importCompanies(
  tx: Tx,
  raw: readonly unknown[],
  now: Date,
): Promise<KindOutcome> {
  const { rows, errors } = parseItems(companyItem, raw);

  for (const { index, item } of rows) {
    if (item.externalId.startsWith(STAFF_COMPANY_PREFIX)) {
      errors.add(index, 'externalId', importMessages.reservedExternalId);
    }
    if (item.externalId.startsWith(CONSOLE_CUSTOMER_PREFIX)) {
      errors.add(index, 'externalId', importMessages.consoleCustomerExternalId);
    }
  }
  const resellerIdOf = await resellerIds(
    tx,
    rows.map((row) => row.item.resellerExternalId),
  );
  for (const { index, item } of rows) {
    if (!resellerIdOf.has(item.resellerExternalId)) {
      errors.add(index, 'resellerExternalId', importMessages.unknownReseller);
    }
  }
  const accounts = await findAccounts(
    tx,
    rows.map((row) => row.item.admin.email),
  );
  checkAccountEmails(
    rows.map(({ index, item }) => ({
      index,
      email: item.admin.email,
      companyExternalId: item.externalId,
    })),
    'admin.email',
    accounts,
    errors,
  );
  if (errors.any) return { errors: errors.sorted() };

  const existing = await companiesByExternalId(
    tx,
    rows.map((row) => row.item.externalId),
  );
  const upserted = await upsertCompanies(
    tx,
    rows.map(({ item }) => ({
      key: item.externalId,
      current: existing.get(item.externalId),
      values: {
        resellerId: resellerIdOf.get(item.resellerExternalId)!,
        name: item.name,
        logoUrl: item.logoUrl ?? null,
      },
    })),
    now,
  );
  // By company, as addAdmins logs: the log's commit locks are taken in one order by every import.
  const created = rows
    .map(({ item }, i) => ({ id: upserted[i]!.id, name: item.name, change: upserted[i]!.change }))
    .filter((company) => company.change === 'created')
    .sort((a, b) => a.id - b.id);
  for (const company of created) await recordCompanyCreated(tx, company, OPERATOR, now);
  const invited = await addAdmins(
    tx,
    accounts,
    rows.map(({ item }, i) => ({ companyId: upserted[i]!.id, ...item.admin, isReseller: false })),
    now,
  );

  const tally = new Tally();
  rows.forEach(({ item }, i) => {
    const { id, change } = upserted[i]!;
    const adminAdded = invited.has(item.admin.email);
    tally.item(item.externalId, id, combine(change, adminAdded ? 'created' : 'unchanged'));
  });
  tally.invited.push(...invited);
  return tally.applied();
}
