import { eq, inArray } from 'drizzle-orm';
import { distributorItem } from '../../../src/api/contract/imports';
import type { Tx } from '../../db/client';
import { distributors } from '../../db/schema';
import { Tally, upsertAll, type KindOutcome } from './outcome';
import { parseItems } from './validate';

/** Distributors by externalId: name and contact e-mail. */
export async function importDistributors(
  tx: Tx,
  raw: readonly unknown[],
  now: Date,
): Promise<KindOutcome> {
  const { rows, errors } = parseItems(distributorItem, raw);
  if (errors.any) return { errors: errors.sorted() };

  const externalIds = rows.map((row) => row.item.externalId);
  const existing = await tx
    .select()
    .from(distributors)
    .where(inArray(distributors.externalId, externalIds));
  const byExternalId = new Map(existing.map((row) => [row.externalId, row]));

  const upserted = await upsertAll(
    rows.map(({ item }) => ({
      key: item.externalId,
      current: byExternalId.get(item.externalId),
      values: { name: item.name, email: item.email },
    })),
    {
      insert: (batch) =>
        tx
          .insert(distributors)
          .values(
            batch.map(({ key, values }) => ({
              externalId: key,
              ...values,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .returning({ key: distributors.externalId, id: distributors.id }),
      update: (id, values) =>
        tx
          .update(distributors)
          .set({ ...values, updatedAt: now })
          .where(eq(distributors.id, id)),
    },
  );

  const tally = new Tally();
  rows.forEach(({ item }, i) => tally.item(item.externalId, upserted[i]!.id, upserted[i]!.change));
  return tally.applied();
}
