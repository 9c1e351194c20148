import type { FieldError } from '../../../src/api/contract/envelope';
import type { ImportResult } from '../../../src/api/contract/imports';
import { differs } from './validate';

/** What one kind's import did inside the transaction. */
export interface Applied {
  result: ImportResult;
  /** Accounts created by the import, to be sent an activation link once it has committed. */
  invited: string[];
}

/** Either every item was applied, or none was and these are the reasons. */
export type KindOutcome = Applied | { errors: FieldError[] };

export type Change = 'created' | 'updated' | 'unchanged';

/** Counts created and changed items, and lists the ids in input order. */
export class Tally {
  private created = 0;
  private updated = 0;
  private readonly items: ImportResult['items'] = [];
  readonly invited: string[] = [];

  item(externalId: string, id: number, change: Change) {
    if (change === 'created') this.created += 1;
    if (change === 'updated') this.updated += 1;
    this.items.push({ externalId, id });
  }

  applied(): Applied {
    return {
      result: { created: this.created, updated: this.updated, items: this.items },
      invited: this.invited,
    };
  }
}

/** The change of an item made of several rows: created if its main row was, else updated if any changed. */
export const combine = (main: Change, ...others: Change[]): Change =>
  main === 'unchanged' && others.some((change) => change !== 'unchanged') ? 'updated' : main;

/** Rows per INSERT: few round trips, well under PostgreSQL's 65535 parameters. */
const BATCH = 500;

export async function inBatches<T>(list: readonly T[], write: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < list.length; start += BATCH) {
    await write(list.slice(start, start + BATCH));
  }
}

export interface Upsert<T, V> {
  /** The item's externalId. */
  key: string;
  current: T | undefined;
  values: V;
}

/**
 * Inserts the missing rows (in batches) and updates an existing one only when a stored value
 * would change, so that running the same file again writes nothing. Answers in input order.
 */
export async function upsertAll<T extends { id: number }, V extends Partial<T>>(
  entries: readonly Upsert<T, V>[],
  write: {
    insert: (batch: Upsert<T, V>[]) => Promise<{ key: string; id: number }[]>;
    update: (id: number, values: V) => Promise<unknown>;
  },
): Promise<{ id: number; change: Change }[]> {
  const inserted = new Map<string, number>();
  await inBatches(
    entries.filter((entry) => !entry.current),
    async (batch) => {
      for (const { key, id } of await write.insert(batch)) inserted.set(key, id);
    },
  );
  const results: { id: number; change: Change }[] = [];
  for (const { key, current, values } of entries) {
    if (!current) {
      results.push({ id: inserted.get(key)!, change: 'created' });
    } else if (differs(current, values)) {
      await write.update(current.id, values);
      results.push({ id: current.id, change: 'updated' });
    } else {
      results.push({ id: current.id, change: 'unchanged' });
    }
  }
  return results;
}
