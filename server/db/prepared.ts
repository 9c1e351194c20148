import { createHash } from 'node:crypto';
import type { Db } from './client';

const caches = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query of a hot path, built once per database handle and kind (`shape`) with placeholders for
 * its values: requests then skip building the SQL, and PostgreSQL gets it as a named statement it
 * parses and plans once per connection.
 */
export function preparedOnce<T>(db: Db, shape: string, build: (name: string) => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let query = cache.get(shape) as T | undefined;
  if (!query) {
    // PostgreSQL keeps 63 bytes of a statement's name.
    query = build(`p${createHash('sha1').update(shape).digest('base64url')}`);
    cache.set(shape, query);
  }
  return query;
}
