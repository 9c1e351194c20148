import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { connectPglite, type Database } from '../../../server/db/client';
import * as schema from '../../../server/schema';
import { rowsOf } from './table-digests';

declare module 'vitest' {
  interface ProvidedContext {
    /** A migrated PGlite data directory (a tar file) every test database starts from. */
    pgliteTemplate: string;
    /** SQL that brings a cluster started from the template back to the template's rows. */
    pgliteReset: string;
  }
}

/** Where the template keeps a copy of the rows the migrations wrote (roles, catalogue...). */
const COPY = 'test_template';

/**
 * The statements that empty every table of the app and put the migrations' rows back, with each
 * sequence where the template left it: a cluster so reset is the template again, for the next test
 * file (support/pglite-pool.ts). Triggers are off meanwhile (`session_replication_role`): the rows
 * come back as they were, counts included, without the triggers counting them twice.
 */
async function resetScript(database: Database): Promise<string> {
  const columns = await rowsOf<{ table: string; column: string; identity: string }>(
    database,
    sql`select c.table_name as "table", c.column_name as "column", c.is_identity as identity
      from information_schema.columns c
      join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
      order by c.table_name, c.ordinal_position`,
  );
  const tables = [...new Set(columns.map((c) => c.table))];
  await database.db.execute(sql.raw(`create schema ${COPY}`));
  const statements = [
    'set session_replication_role = replica',
    `truncate table ${tables.map((t) => `public."${t}"`).join(', ')} restart identity`,
  ];
  for (const table of tables) {
    const [counted] = await rowsOf<{ n: number }>(
      database,
      sql.raw(`select count(*)::int as n from public."${table}"`),
    );
    if (!counted?.n) continue;
    const own = columns.filter((c) => c.table === table);
    const list = own.map((c) => `"${c.column}"`).join(', ');
    await database.db.execute(
      sql.raw(`create table ${COPY}."${table}" as select ${list} from public."${table}"`),
    );
    const overriding = own.some((c) => c.identity === 'YES') ? ' overriding system value' : '';
    statements.push(
      `insert into public."${table}" (${list})${overriding} select ${list} from ${COPY}."${table}"`,
    );
  }
  const sequences = await rowsOf<{ name: string; last: string }>(
    database,
    sql`select sequencename as name, last_value::text as last from pg_sequences
      where schemaname = 'public' and last_value is not null`,
  );
  for (const { name, last } of sequences) {
    statements.push(`select setval('public."${name}"', ${last}, true)`);
  }
  statements.push('set session_replication_role = origin');
  return statements.join(';\n');
}

/**
 * The server project's global set-up: the schema migrated once into an embedded cluster, dumped to
 * a file. Each test file's database loads it instead of creating a cluster and migrating it, the
 * larger part of a server test file's start on this machine.
 */
export default async function setup(project: TestProject) {
  // Also when the suite runs on PostgreSQL: the import command's test runs on the embedded
  // database either way.
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-pglite-'));
  const database = connectPglite(schema);
  await database.migrate();
  const reset = await resetScript(database);
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, new Uint8Array(await (await database.dump()).arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  project.provide('pgliteReset', reset);
  return () => rmSync(dir, { recursive: true, force: true });
}
