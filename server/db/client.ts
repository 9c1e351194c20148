import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as libvirtSchema from '../providers/libvirt/schema';
import * as simSchema from '../providers/sim/schema';
import * as jobsSchema from '../jobs/schema';
import * as catalogSchema from './catalog-schema';
import * as networkSchema from './network-schema';
import * as coreSchema from './schema';
import * as supportSchema from './support-schema';
import * as vmSchema from './vm-schema';

const schema = {
  ...coreSchema,
  ...catalogSchema,
  ...vmSchema,
  ...networkSchema,
  ...supportSchema,
  ...jobsSchema,
  ...simSchema,
  ...libvirtSchema,
};

export type Schema = typeof schema;
/** The driver-neutral database handle every repository takes. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PostgreSQL through node-postgres. */
export function connectPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // PostgreSQL may end an idle connection (a restart, an administrator). The pool drops it and the
  // next query opens a new one; without a listener Node would end the whole process instead.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder }),
    close: () => pool.end(),
  };
}

/** Embedded PGlite: on disk under `dataDir`, or in memory when `dataDir` is undefined. */
export function connectPglite(dataDir?: string): Database {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // The options form: `new PGlite(undefined, options)` drops the options (and the extension).
  const client = new PGlite({ dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}
