import { eq, inArray } from 'drizzle-orm';
import { resellerItem, type ResellerItem } from '../../../src/api/contract/imports';
import { resellerSettingsMessages } from '../../../src/api/contract/reseller-settings';
import type { Tx } from '../../db/client';
import { distributors, resellerDomains, resellers } from '../../db/schema';
import { replaceDomains } from '../reseller/settings-records';
import {
  entryErrors,
  knownRegions,
  replaceResellerLimits,
  resellerLimitsOf,
  sameLimits,
} from '../limits/limit-records';
import { addAdmins, checkAccountEmails, findAccounts } from './accounts';
import { companiesByExternalId, STAFF_COMPANY_PREFIX, upsertCompanies } from './companies';
import { combine, Tally, upsertAll, type Change, type KindOutcome } from './outcome';
import { importMessages, parseItems, type Row, type RowErrors } from './validate';

/** What an importer may need of the installation besides the file. */
export interface ImportContext {
  /** PUBLIC_URL's host, which no reseller may hold. */
  productHost: string;
}

const staffCompanyId = (externalId: string) => `${STAFF_COMPANY_PREFIX}${externalId}`;

async function distributorIds(tx: Tx, externalIds: readonly string[]) {
  if (externalIds.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ id: distributors.id, externalId: distributors.externalId })
    .from(distributors)
    .where(inArray(distributors.externalId, [...new Set(externalIds)]));
  return new Map(rows.map((row) => [row.externalId, row.id]));
}

/**
 * The reseller's limits when the item sets them: its whole set, replaced. Written only when it
 * differs, so that running the same file again changes nothing.
 */
async function replaceLimits(
  tx: Tx,
  resellerId: number,
  limits: ResellerItem['limits'],
): Promise<Change> {
  if (!limits) return 'unchanged';
  if (sameLimits(await resellerLimitsOf(tx, resellerId), limits)) return 'unchanged';
  await replaceResellerLimits(tx, resellerId, limits);
  return 'updated';
}

/**
 * The items' domains that cannot be theirs: the product's own host, and a host another reseller
 * holds or an earlier item of the file claims (`domains.<n>`, as the schema names an entry).
 */
async function checkDomains(
  tx: Tx,
  rows: readonly Row<ResellerItem>[],
  context: ImportContext,
  errors: RowErrors,
) {
  const hosts = rows.flatMap(({ item }) => item.domains ?? []);
  if (hosts.length === 0) return;
  const held = await tx
    .select({ host: resellerDomains.host, externalId: resellers.externalId })
    .from(resellerDomains)
    .innerJoin(resellers, eq(resellers.id, resellerDomains.resellerId))
    .where(inArray(resellerDomains.host, [...new Set(hosts)]));
  const holder = new Map(held.map((row) => [row.host, row.externalId]));
  const claimed = new Set<string>();
  for (const { index, item } of rows) {
    (item.domains ?? []).forEach((host, n) => {
      const field = `domains.${n}`;
      if (host === context.productHost) {
        errors.add(index, field, resellerSettingsMessages.domainIsProducts);
      } else if (claimed.has(host) || (holder.get(host) ?? item.externalId) !== item.externalId) {
        errors.add(index, field, resellerSettingsMessages.domainTaken);
      }
      claimed.add(host);
    });
  }
}

/**
 * Resellers by externalId with their branding and order-form links, the limits all their
 * customers together may hold when the item has `limits`, and the host names that show their brand
 * when it has `domains` (trusted as the operator gives them). Each reseller also gets its
 * own staff company (`reseller:<externalId>`) with an Admin for the reseller's e-mail, who has
 * Order Services (`isReseller`).
 */
export async function importResellers(
  tx: Tx,
  raw: readonly unknown[],
  now: Date,
  context: ImportContext,
): Promise<KindOutcome> {
  const { rows, errors } = parseItems(resellerItem, raw);

  const distributorIdOf = await distributorIds(
    tx,
    rows.map((row) => row.item.distributerExternalId),
  );
  for (const { index, item } of rows) {
    if (!distributorIdOf.has(item.distributerExternalId)) {
      errors.add(index, 'distributerExternalId', importMessages.unknownDistributor);
    }
  }
  const accounts = await findAccounts(
    tx,
    rows.map((row) => row.item.email),
  );
  checkAccountEmails(
    rows.map(({ index, item }) => ({
      index,
      email: item.email,
      companyExternalId: staffCompanyId(item.externalId),
    })),
    'email',
    accounts,
    errors,
  );
  const regionIds = await knownRegions(
    tx,
    rows.flatMap(({ item }) => (item.limits ?? []).flatMap((limit) => limit.regionId ?? [])),
  );
  for (const { index, item } of rows) {
    if (!item.limits) continue;
    for (const { field, message } of entryErrors(item.limits, regionIds)) {
      errors.add(index, field, message);
    }
  }
  await checkDomains(tx, rows, context, errors);
  if (errors.any) return { errors: errors.sorted() };

  const externalIds = rows.map((row) => row.item.externalId);
  const existing = new Map(
    (await tx.select().from(resellers).where(inArray(resellers.externalId, externalIds))).map(
      (row) => [row.externalId, row],
    ),
  );
  const upserted = await upsertAll(
    rows.map(({ item }) => ({
      key: item.externalId,
      current: existing.get(item.externalId),
      values: {
        distributorId: distributorIdOf.get(item.distributerExternalId)!,
        name: item.name,
        email: item.email,
        resellerName: item.resellerName ?? null,
        logoUrl: item.logoUrl ?? null,
        tabLogoUrl: item.tabLogoUrl ?? null,
        orderUrlNewCustomer: item.orderUrls?.newCustomer ?? null,
        orderUrlAccountChanges: item.orderUrls?.accountChanges ?? null,
        // Absent: the colour stays as the reseller may have set it in its settings.
        ...(item.primaryColor !== undefined && { primaryColor: item.primaryColor }),
      },
    })),
    {
      insert: (batch) =>
        tx
          .insert(resellers)
          .values(
            batch.map(({ key, values }) => ({
              externalId: key,
              ...values,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .returning({ key: resellers.externalId, id: resellers.id }),
      update: (id, values) =>
        tx
          .update(resellers)
          .set({ ...values, updatedAt: now })
          .where(eq(resellers.id, id)),
    },
  );

  const staffExternalIds = externalIds.map(staffCompanyId);
  const staffCompanies = await companiesByExternalId(tx, staffExternalIds);
  const staff = await upsertCompanies(
    tx,
    rows.map(({ item }, i) => ({
      key: staffExternalIds[i]!,
      current: staffCompanies.get(staffExternalIds[i]!),
      values: { resellerId: upserted[i]!.id, name: item.name, isResellerStaff: true },
    })),
    now,
  );
  const invited = await addAdmins(
    tx,
    accounts,
    rows.map(({ item }, i) => ({ companyId: staff[i]!.id, email: item.email, isReseller: true })),
    now,
  );

  const limitsChanged: Change[] = [];
  const domainsChanged: Change[] = [];
  for (const [i, { item }] of rows.entries()) {
    const resellerId = upserted[i]!.id;
    limitsChanged.push(await replaceLimits(tx, resellerId, item.limits));
    // Present (`[]` included): the reseller's imported domains; those from its settings stay.
    const domains = item.domains
      ? await replaceDomains(
          tx,
          resellerId,
          { hosts: item.domains, source: 'import', replaced: ['import'] },
          now,
        )
      : false;
    domainsChanged.push(domains ? 'updated' : 'unchanged');
  }

  const tally = new Tally();
  rows.forEach(({ item }, i) => {
    const { id, change } = upserted[i]!;
    const adminAdded = invited.has(item.email) ? 'created' : 'unchanged';
    tally.item(
      item.externalId,
      id,
      combine(change, staff[i]!.change, adminAdded, limitsChanged[i]!, domainsChanged[i]!),
    );
  });
  tally.invited.push(...invited);
  return tally.applied();
}
