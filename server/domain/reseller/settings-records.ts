import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { ResellerSettings } from '../../../src/api/contract/reseller-settings';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { resellerDomains, resellers } from '../../db/schema';
import { notFound } from '../../http-error';
import { domainVerificationValue, VERIFICATION_RECORD_PREFIX } from './settings-domains';

export type DomainSource = (typeof resellerDomains.$inferSelect)['source'];

/** The reseller's domains by host name (the first is the one e-mailed links default to). */
export const domainsOf = (db: Db | Tx, resellerId: number) =>
  db
    .select({ host: resellerDomains.host, source: resellerDomains.source })
    .from(resellerDomains)
    .where(eq(resellerDomains.resellerId, resellerId))
    .orderBy(asc(resellerDomains.host));

/** The settings as `GET /reseller/settings` answers them. */
export async function readResellerSettings(
  db: Db | Tx,
  config: Pick<Config, 'appSecret'>,
  resellerId: number,
): Promise<ResellerSettings> {
  const [[row], domains] = await Promise.all([
    db.select().from(resellers).where(eq(resellers.id, resellerId)),
    domainsOf(db, resellerId),
  ]);
  if (!row) throw notFound();
  return {
    brandName: row.resellerName,
    logoUrl: row.logoUrl,
    tabLogoUrl: row.tabLogoUrl,
    primaryColor: row.primaryColor,
    supportEmail: row.email,
    orderUrls: { newCustomer: row.orderUrlNewCustomer, accountChanges: row.orderUrlAccountChanges },
    domains,
    domainVerification: {
      recordPrefix: VERIFICATION_RECORD_PREFIX,
      value: domainVerificationValue(config.appSecret, resellerId),
    },
  };
}

/**
 * Writes the reseller's new list of domains, in a transaction the caller holds: of its domains
 * from the sources `replaced`, those not in the list go; those it holds stay as they are (source
 * included); the rest are added from `source` (a host another reseller took in the meantime fails
 * on the primary key). Whether anything changed.
 */
export async function replaceDomains(
  tx: Tx,
  resellerId: number,
  list: { hosts: readonly string[]; source: DomainSource; replaced: readonly DomainSource[] },
  now: Date,
): Promise<boolean> {
  const hosts = [...list.hosts];
  const removed = await tx
    .delete(resellerDomains)
    .where(
      and(
        eq(resellerDomains.resellerId, resellerId),
        inArray(resellerDomains.source, [...list.replaced]),
        hosts.length > 0 ? notInArray(resellerDomains.host, hosts) : undefined,
      ),
    )
    .returning({ host: resellerDomains.host });
  const held = new Set((await domainsOf(tx, resellerId)).map((row) => row.host));
  const added = hosts.filter((host) => !held.has(host));
  if (added.length > 0) {
    await tx
      .insert(resellerDomains)
      .values(added.map((host) => ({ host, resellerId, source: list.source, createdAt: now })));
  }
  return removed.length + added.length > 0;
}
