import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

/** The column shapes every table shares. */
export const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A moment that may not have come yet. */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/** Text compared byte by byte: the same order on every cluster, whatever its locale, and PGlite. */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * A name's sort key in natural order (`web-2` before `web-10`), written by the database from the
 * row itself with `natural_sort_key` (migration 0014), so that a list sorts and pages on an
 * index of it and reads it instead of computing it again. `name` gives the row's name (a column,
 * or an expression of the row's columns): a function, as the table is still being declared.
 */
export const naturalSortKey = (column: string, name: () => SQLWrapper) =>
  bytewiseText(column)
    .notNull()
    .generatedAlwaysAs((): SQL => sql`natural_sort_key(${name()})`);
