import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../server/db/client';

/** Both drivers answer raw SQL with `{ rows }`; the shared Db type does not say so. */
export async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  const result = (await database.db.execute(query)) as { rows: T[] };
  return result.rows;
}

/**
 * A digest of every table but `unwatched`, read in one statement, to prove a refused call changed
 * nothing: the isolation suite reads it twice for each of ~450 cases. A table in `columnsOf` is
 * watched on those columns only (e.g. whether a session was ended, not when it was last seen).
 */
export async function tableDigests(
  database: Database,
  unwatched: ReadonlySet<string>,
  columnsOf: Readonly<Record<string, readonly string[]>> = {},
): Promise<() => Promise<Record<string, string>>> {
  const tables = await rowsOf<{ table_name: string }>(
    database,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const digests = sql.raw(
    tables
      .filter(({ table_name: table }) => !unwatched.has(table) || table in columnsOf)
      .map(({ table_name: table }) => {
        const columns = columnsOf[table];
        const row = columns ? `row(${columns.map((c) => `t."${c}"`).join(', ')})::text` : 't::text';
        return `select '${table}' as name, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as digest from "${table}" t`;
      })
      .join(' union all '),
  );
  return async () => {
    const found = await rowsOf<{ name: string; digest: string }>(database, digests);
    return Object.fromEntries(found.map((row) => [row.name, row.digest]));
  };
}
