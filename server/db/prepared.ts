import { createHash } from 'node:crypto';
import type { Db } from './client';

/**
 * A map per database handle, made on first use: what a process keeps about one database (two test
 * servers in one process never share it).
 */
export function perDatabase<V>(): (db: Db) => Map<string, V> {
  const maps = new WeakMap<Db, Map<string, V>>();
  return (db) => {
    let map = maps.get(db);
    if (!map) {
      map = new Map();
      maps.set(db, map);
    }
    return map;
  };
}

const queriesOf = perDatabase<unknown>();

/**
 * A query of a hot path, built once per database handle and kind (`shape`) with placeholders for
 * its values: requests then skip building the SQL, and PostgreSQL gets it as a named statement it
 * parses and plans once per connection.
 */
export function preparedOnce<T>(db: Db, shape: string, build: (name: string) => T): T {
  const cache = queriesOf(db);
  let query = cache.get(shape) as T | undefined;
  if (!query) {
    // PostgreSQL keeps 63 bytes of a statement's name.
    query = build(`p${createHash('sha1').update(shape).digest('base64url')}`);
    cache.set(shape, query);
  }
  return query;
}
