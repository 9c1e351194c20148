import { inArray } from 'drizzle-orm';
import { limitNouns, type LimitEntry } from '../../../src/api/contract/limits';
import { regions } from '../../db/catalog-schema';
import type { Tx } from '../../db/client';
import type { Actor } from '../events/actor';
import { recordEvent } from '../events/record';

/** Entries a summary names; a longer set is cut there ("and 12 more"). */
const SUMMARY_ENTRIES = 20;

/**
 * A set of limits as a person reads it, in the stored order: "10 VMs, 4 vCPUs in Frankfurt";
 * "none" for no limits at all.
 */
export function limitsSummary(limits: readonly LimitEntry[], regionNames: Map<number, string>) {
  if (limits.length === 0) return 'none';
  const named = limits.slice(0, SUMMARY_ENTRIES).map((limit) => {
    const where =
      limit.regionId === null
        ? ''
        : ` in ${regionNames.get(limit.regionId) ?? `region ${limit.regionId}`}`;
    return `${limit.max} ${limitNouns[limit.resource]}${where}`;
  });
  const more = limits.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/**
 * `company.limits` in the customer's log, by the reseller's user: the set before and after, as
 * `from` and `to` summaries (the activity log shows "from → to").
 */
export async function recordLimitsChange(
  tx: Tx,
  company: { id: number; name: string },
  change: { before: readonly LimitEntry[]; after: readonly LimitEntry[] },
  actor: Actor,
  at: Date,
): Promise<void> {
  const regionIds = [...change.before, ...change.after].flatMap((limit) =>
    limit.regionId === null ? [] : [limit.regionId],
  );
  const names =
    regionIds.length === 0
      ? []
      : await tx
          .select({ id: regions.id, name: regions.name })
          .from(regions)
          .where(inArray(regions.id, [...new Set(regionIds)]));
  const regionNames = new Map(names.map((region) => [region.id, region.name]));
  await recordEvent(tx, {
    companyId: company.id,
    actor,
    subject: { type: 'company', id: company.id, name: company.name },
    action: 'company.limits',
    outcome: 'succeeded',
    detail: {
      from: limitsSummary(change.before, regionNames),
      to: limitsSummary(change.after, regionNames),
    },
    at,
  });
}
