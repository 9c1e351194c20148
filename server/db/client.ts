import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
import { SharingPool } from './sharing-pool';

/**
 * The tables, as modules export them (server/schema.ts composes the app's). The client takes them
 * from whoever connects rather than importing them, so that this layer imports none of the layers
 * above it whose tables it stores.
 */
export type Schema = Record<string, unknown>;
/**
 * The driver-neutral database handle every repository takes. Its type names no tables: the
 * repositories query through the builder (`select`, `insert`…), not drizzle's relational
 * `db.query`, whose types would need the app's tables here.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel (NOTIFY from any process on the database). After a lost connection is
   * made again, `onResumed` runs: notifications sent meanwhile are lost, the listener must look.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onResumed: () => void,
  ): Promise<() => Promise<void>>;
  /** How busy the connections are now (the metrics read it at each scrape). */
  load(): DatabaseLoad;
  close(): Promise<void>;
}

export interface DatabaseLoad {
  kind: 'postgres' | 'pglite';
  /** node-postgres's pool, which transactions and cursors take connections from; not on PGlite. */
  pool?: { total: number; idle: number; waiting: number; max: number };
  /** Statements sent and not answered yet (PGlite: statements and transactions). */
  pending: number;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Statements the app repeats are short; a bulk write of many rows is long and seldom repeats, and
 * would only fill each connection's statement cache.
 */
const MAX_PREPARED_TEXT = 4096;
const statementNames = new Map<string, string>();

function statementName(text: string) {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= 10_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Each statement with parameters goes by a name made of its text, so that PostgreSQL parses and
 * plans it once per connection and then only binds and executes it (node-postgres prepares a
 * named statement on a connection the first time it sees the name).
 */
class PreparingClient extends pg.Client {}
const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
PreparingClient.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  if (
    typeof config === 'object' &&
    config !== null &&
    'text' in config &&
    typeof config.text === 'string' &&
    !('name' in config && config.name) &&
    config.text.length <= MAX_PREPARED_TEXT &&
    Array.isArray(rest[0]) &&
    rest[0].length > 0
  ) {
    return plainQuery.call(this, { ...config, name: statementName(config.text) }, ...rest);
  }
  return plainQuery.call(this, config, ...rest);
} as typeof pg.Client.prototype.query;

/**
 * Transactions take a connection each: one Node.js process keeps about two per core busy; more
 * only queue inside the database. DATABASE_POOL_SIZE overrides it.
 */
export const defaultPoolSize = () => Math.max(4, 2 * availableParallelism() + 2);

/** PostgreSQL through node-postgres: statements outside a transaction share two connections per core. */
export function connectPostgres(schema: Schema, url: string, poolSize?: number): Database {
  const connection: pg.ClientConfig = {
    connectionString: url,
    // A prepared statement keeps one plan, made for any values. Every statement the app repeats
    // is a short indexed read or write that such a plan serves as well (the lists are written
    // for it), and PostgreSQL would otherwise plan a LIMIT/OFFSET query again on every call.
    options: '-c plan_cache_mode=force_generic_plan',
  };
  const pool = new SharingPool(
    { ...connection, max: poolSize ?? defaultPoolSize(), Client: PreparingClient },
    {
      connections: 2 * availableParallelism(),
      open: () => new PreparingClient({ ...connection, pipeline: true }),
    },
  );
  // PostgreSQL may end an idle connection (a restart, an administrator). The pool drops it and the
  // next query opens a new one; without a listener Node would end the whole process instead.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder }),
    listen: (channel, onNotify, onResumed) => listenPostgres(url, channel, onNotify, onResumed),
    load: () => ({
      kind: 'postgres',
      pool: {
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max,
      },
      pending: pool.pending,
    }),
    close: () => pool.end(),
  };
}

/**
 * A connection of its own (a pooled one would drop its LISTEN when handed back), made again with
 * a growing pause whenever it is lost, for as long as the listener is not stopped.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onResumed: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: 'launchpad-listen' });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => {});
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    next.on('end', () => {
      if (!stopped) reconnect(0);
    });
    client = next;
  }

  function reconnect(attempt: number) {
    retry = setTimeout(
      () => {
        if (stopped) return;
        connect().then(onResumed, () => reconnect(attempt + 1));
      },
      Math.min(10_000, 250 * 2 ** attempt),
    );
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/**
 * Embedded PGlite: on disk under `dataDir`, or in memory when `dataDir` is undefined; started from
 * `template` (a data directory `dump()` wrote) instead of an empty cluster when given.
 */
export function connectPglite(
  schema: Schema,
  dataDir?: string,
  template?: Blob,
): Database & { dump(): Promise<Blob> } {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // The options form: `new PGlite(undefined, options)` drops the options (and the extension).
  const client = new PGlite({ dataDir, loadDataDir: template, extensions: { pg_trgm } });
  return { ...pgliteDatabase(client, schema), dump: () => client.dumpDataDir('none') };
}

/**
 * A handle on a PGlite already started. Each handle has its own caches (`perDatabase`): the test
 * suite hands one cluster, emptied, to one test file after another, each through a new handle.
 */
export function pgliteDatabase(client: PGlite, schema: Schema): Database {
  const counted = countingInFlight(client);
  const db = drizzlePglite(counted.client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    // One connection in this process: it cannot be lost, and its own NOTIFY reaches it.
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      // Closing the database ends its listeners too.
      return () => (client.closed ? Promise.resolve() : unlisten());
    },
    load: () => ({ kind: 'pglite', pending: counted.inFlight() }),
    close: () => client.close(),
  };
}

/**
 * The client as Drizzle sees it, counting its statements and transactions until they are
 * answered: PGlite has one connection and runs them one at a time, so the count is its queue. A
 * proxy rather than a patch: the test suite hands one PGlite to many handles in turn.
 */
function countingInFlight(client: PGlite) {
  let inFlight = 0;
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight += 1;
    const done = () => {
      inFlight -= 1;
    };
    work.then(done, done);
    return work;
  };
  const counted = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'query' || property === 'transaction' || property === 'exec') {
        return (...args: unknown[]) => track(method.apply(target, args) as Promise<unknown>);
      }
      return method.bind(target);
    },
  });
  return { client: counted, inFlight: () => inFlight };
}
