import { createHmac } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { inArray } from 'drizzle-orm';
import type { FieldError } from '../../../src/api/contract/envelope';
import { resellerSettingsMessages } from '../../../src/api/contract/reseller-settings';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { resellerDomains } from '../../db/schema';
import { deriveKey } from '../app-keys';

/**
 * Which host names a reseller may hold (docs/reseller-domains.md): never the product's own, never
 * another reseller's, and, when the reseller adds one in its settings, only one whose DNS says it
 * is the reseller's: a TXT record `_launchpad.<host>` holding the reseller's verification value.
 */

export const VERIFICATION_RECORD_PREFIX = '_launchpad';

/** The TXT records at a DNS name, each as its strings (RFC 1035 splits long ones); none: `[]`. */
export type TxtLookup = (recordName: string) => Promise<string[][]>;

// Answers meaning "no such record", as opposed to a DNS that could not be asked.
const NO_RECORD: ReadonlySet<string> = new Set([dns.NODATA, dns.NOTFOUND]);

/** The system's resolvers, briefly: a settings page must not wait on a dead name server for long. */
export const dnsTxtLookup: TxtLookup = async (recordName) => {
  const resolver = new dns.Resolver({ timeout: 2_000, tries: 2 });
  try {
    return await resolver.resolveTxt(recordName);
  } catch (error) {
    if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
};

/**
 * The value of the reseller's TXT record: one per reseller, the same on every process of the
 * installation, and unknowable to anyone without APP_SECRET, so that a reseller cannot read off
 * another's. Not a secret itself: the reseller is shown it.
 */
export function domainVerificationValue(appSecret: string, resellerId: number): string {
  const mac = createHmac('sha256', deriveKey(appSecret, 'reseller-domains'))
    .update(`reseller:${resellerId}`)
    .digest('hex');
  return `launchpad-verification=${mac.slice(0, 32)}`;
}

export const verificationRecordName = (host: string) => `${VERIFICATION_RECORD_PREFIX}.${host}`;

/** PUBLIC_URL's host: the console's own address, which stays unbranded. */
export const productHost = (config: Pick<Config, 'publicUrl'>) =>
  new URL(config.publicUrl).hostname.toLowerCase();

/** Who holds each of these hosts now. */
export async function holdersOf(db: Db | Tx, hosts: readonly string[]) {
  if (hosts.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ host: resellerDomains.host, resellerId: resellerDomains.resellerId })
    .from(resellerDomains)
    .where(inArray(resellerDomains.host, [...hosts]));
  return new Map(rows.map((row) => [row.host, row.resellerId]));
}

/** Whether one of the name's TXT records is the value; a DNS that cannot be asked proves nothing. */
async function hasRecord(lookup: TxtLookup, recordName: string, value: string) {
  try {
    const records = await lookup(recordName);
    return records.some((chunks) => chunks.join('').trim() === value);
  } catch {
    return false;
  }
}

export interface DomainCheckInput {
  resellerId: number;
  /** The reseller's whole new list (lower-case, each once: the contract saw to it). */
  hosts: readonly string[];
  /** The hosts it holds now: kept as they are, checked no further. */
  held: ReadonlySet<string>;
}

/**
 * The errors of the list, one per host at most, named `domains.<index>` as a schema's 400 names
 * an item. The DNS is asked only about hosts that passed everything else, all at once.
 */
export async function domainErrors(
  deps: { db: Db; config: Pick<Config, 'publicUrl' | 'appSecret' | 'resellerDomainCheck'> },
  lookup: TxtLookup,
  input: DomainCheckInput,
): Promise<FieldError[]> {
  const { config } = deps;
  const own = productHost(config);
  const added = input.hosts.filter((host) => !input.held.has(host));
  const holders = await holdersOf(deps.db, added);
  const value = domainVerificationValue(config.appSecret, input.resellerId);
  const checks = input.hosts.map(async (host): Promise<string | undefined> => {
    if (input.held.has(host)) return undefined;
    if (host === own) return resellerSettingsMessages.domainIsProducts;
    const holder = holders.get(host);
    if (holder !== undefined && holder !== input.resellerId) {
      return resellerSettingsMessages.domainTaken;
    }
    if (config.resellerDomainCheck === 'off') return undefined;
    const recordName = verificationRecordName(host);
    return (await hasRecord(lookup, recordName, value))
      ? undefined
      : resellerSettingsMessages.domainUnverified(recordName, value);
  });
  const messages = await Promise.all(checks);
  return messages.flatMap((message, index) =>
    message === undefined ? [] : [{ field: `domains.${index}`, message }],
  );
}
