import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { inject } from 'vitest';
import { pgliteDatabase, type Database } from '../../../server/db/client';
import * as schema from '../../../server/schema';

/**
 * Embedded clusters kept between the test files of a worker. Starting one, even from the migrated
 * template, takes 1.5-2 s of CPU, which was nearly half of the server project's time; emptying one
 * back to the template's rows takes a few milliseconds. A worker runs its files one after another
 * and keeps its modules between them (vite.config.ts: `isolate: false`), so a file's clusters wait
 * here for the next file. Each file gets a new handle (its own statement and anchor caches).
 */

/** Clusters kept beyond this are closed: most files use one, a few use several at once. */
const MAX_IDLE = 2;
const idle: PGlite[] = [];

let template: Promise<Blob> | undefined;
/** The migrated cluster the project's global set-up wrote (support/pglite-template.ts). */
function migratedTemplate(): Promise<Blob> {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return template;
}

/**
 * What a test file could change besides rows: the tables, indexes, functions and triggers. A
 * cluster whose schema a file changed (and did not put back) is not used again.
 */
const SCHEMA_PRINT = `select md5(coalesce(string_agg(item, ',' order by item), '')) as print from (
  select 'c:' || c.relname || ':' || c.relkind::text as item from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'
  union all select 't:' || tgname from pg_trigger where not tgisinternal
  union all select 'f:' || p.proname from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public') as items`;

const printOf = async (client: PGlite) =>
  (await client.query<{ print: string }>(SCHEMA_PRINT)).rows[0]!.print;

let templatePrint: string | undefined;

/**
 * A database as the template left it, for one test file (or one server of it): a kept cluster
 * emptied, else a new one. `release` hands it back once the file is done with it.
 */
export async function pooledDatabase(): Promise<{
  database: Database;
  release: () => Promise<void>;
  /** The cluster itself (the pool's own test tells them apart). */
  cluster: PGlite;
}> {
  let client = idle.pop();
  if (client) {
    await client.exec(inject('pgliteReset'));
  } else {
    client = new PGlite({ loadDataDir: await migratedTemplate(), extensions: { pg_trgm } });
    templatePrint ??= await printOf(client);
  }
  const cluster = client;
  return {
    cluster,
    database: pgliteDatabase(cluster, schema),
    async release() {
      // A test may have closed it to see the database go away.
      if (cluster.closed) return;
      if (idle.length < MAX_IDLE && (await printOf(cluster)) === templatePrint) {
        idle.push(cluster);
      } else {
        await cluster.close();
      }
    },
  };
}
