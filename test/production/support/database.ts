import path from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** Every table's rows and a digest of their content, by `schema.table`. */
export type TableFacts = Record<string, { rows: number; digest: string }>;

const TABLES = `select table_schema || '.' || table_name as name from information_schema.tables
  where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`;

const factsQuery = (tables: string[]) =>
  tables
    .map((name) => {
      const [schema, table] = name.split('.');
      return `select '${name}' as name, count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${schema}"."${table}" t`;
    })
    .join(' union all ');

type Query = <T>(text: string) => Promise<T[]>;

async function facts(query: Query): Promise<TableFacts> {
  const tables = (await query<{ name: string }>(TABLES)).map((row) => row.name);
  const found = await query<{ name: string; rows: number; digest: string }>(factsQuery(tables));
  return Object.fromEntries(found.map(({ name, rows, digest }) => [name, { rows, digest }]));
}

/** The tables of a PGlite data folder (`DATA_DIR/pglite`), read while no server holds it. */
export async function pgliteFacts(dataDir: string): Promise<TableFacts> {
  const client = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
  try {
    return await facts(async <T>(text: string) => (await client.query<T>(text)).rows);
  } finally {
    await client.close();
  }
}

export async function postgresFacts(url: string): Promise<TableFacts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await facts(async <T>(text: string) => (await client.query(text)).rows as T[]);
  } finally {
    await client.end();
  }
}

/** Runs statements on the server of `adminUrl` (one connection, then closed). */
export async function onPostgres(adminUrl: string, ...statements: string[]) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server of `adminUrl`: its name and URL. */
export async function createDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onPostgres(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export const dropDatabase = (adminUrl: string, name: string) =>
  onPostgres(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/** PostgreSQL's client programs: `PG_BIN`, else Debian's 15. */
export const pgBin = (program: string) =>
  path.join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', program);
