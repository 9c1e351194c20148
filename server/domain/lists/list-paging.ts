import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { listCounts, type CountedList } from '../../db/list-counts-schema';

/** What every paged, searched list of the API shares. */

/** `%` and `_` typed by the user are literal characters, not wildcards. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A case-insensitive "contains" pattern for ILIKE. */
export const containsPattern = (search: string) => `%${escapeLike(search)}%`;

/**
 * A name's natural sort key computed as the list is read, for a name no column keeps the key of
 * (`naturalSortKey` in `db/columns.ts`): compared as those columns are, byte by byte.
 */
export const naturalKey = (name: SQLWrapper): SQL => sql`natural_sort_key(${name}) collate "C"`;

/** Lists always have at least one page, even an empty one. */
export const pageCount = (total: number, rowsPerPage: number) =>
  Math.max(1, Math.ceil(total / rowsPerPage));

/**
 * The rows a list holds, as the triggers keep it (`list-counts-schema.ts`): for one owner, or
 * summed over `any(array)` owners.
 */
export function keptCount(db: Db, list: CountedList, owner: number | SQLWrapper): SQL<number> {
  const kept = db
    .select({ n: sql`sum(${listCounts.n})` })
    .from(listCounts)
    .where(and(eq(listCounts.list, list), sql`${listCounts.ownerId} = ${owner}`));
  return sql<number>`coalesce((${kept}), 0)`.mapWith(Number);
}

/**
 * Rows past this many beyond the page asked for are not counted in a filtered list: a search
 * matching most of a large company would otherwise read every match on every call. The last
 * page moves on as the user pages on.
 */
export const FILTERED_COUNT_BOUND = 10_000;

/** How many rows `matching` selects (a select of anything, with its joins and filter), up to the bound past `offset`. */
export function boundedCount(
  matching: { limit(n: number): SQLWrapper },
  offset: number,
): SQL<number> {
  return sql<number>`(select count(*) from (${matching.limit(offset + FILTERED_COUNT_BOUND)}) as matches)`.mapWith(
    Number,
  );
}

/**
 * A page from rows that each carry the list's `total` (read in the same statement). Past the last
 * page there are no rows to carry it, and the total is read alone.
 */
export async function pageWithTotal<T extends { total: number }>(
  db: Db,
  rows: T[],
  total: SQL<number>,
  rowsPerPage: number,
): Promise<{ data: Omit<T, 'total'>[]; totalPages: number }> {
  const counted =
    rows[0]?.total ?? (await db.select({ total }).from(sql`(select 1) as one`))[0]?.total ?? 0;
  return {
    data: rows.map(({ total: _total, ...row }) => row),
    totalPages: pageCount(counted, rowsPerPage),
  };
}

/** `column = any(array(ids))`: the page's ids, picked first from an index, then their rows by key. */
export const oneOf = (column: SQLWrapper, ids: SQLWrapper) => sql`${column} = any(array(${ids}))`;
