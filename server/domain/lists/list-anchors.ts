import type { Db } from '../../db/client';
import { perDatabase } from '../../db/prepared';

/**
 * Where a long list's every `ANCHOR_STRIDE`-th row sits, so that a deep page starts from the
 * nearest anchor by its sort key (an index range) instead of counting past every row before it.
 * Anchors are read at a list version (`list_counts.version`) and serve only while the version
 * stands: the page query reads the version in its own snapshot and the caller reads the anchors
 * again when it moved.
 */
export const ANCHOR_STRIDE = 250;
const MAX_LISTS = 1_000;

export interface Anchor {
  position: number;
  /** The sort key as PostgreSQL writes it in text (exact for text, numbers and timestamps). */
  key: string;
  id: number;
}

export interface Anchors {
  version: number;
  /** By position: 0, ANCHOR_STRIDE, 2 × ANCHOR_STRIDE… */
  anchors: Anchor[];
}

const cacheOf = perDatabase<Anchors>();
const readingOf = perDatabase<Promise<Anchors>>();

export function cachedAnchors(db: Db, list: string): Anchors | undefined {
  const cache = cacheOf(db);
  const found = cache.get(list);
  if (found) {
    // Least recently used goes first.
    cache.delete(list);
    cache.set(list, found);
  }
  return found;
}

function keepAnchors(db: Db, list: string, anchors: Anchors) {
  const cache = cacheOf(db);
  cache.delete(list);
  cache.set(list, anchors);
  if (cache.size > MAX_LISTS) cache.delete(cache.keys().next().value!);
}

/** Reads a list's anchors once for every request that needs them at the same time, and keeps them. */
export function readAnchorsOnce(db: Db, list: string, read: () => Promise<Anchors>) {
  const pending = readingOf(db);
  const inFlight = pending.get(list);
  if (inFlight) return inFlight;
  const started = read()
    .then((anchors) => {
      keepAnchors(db, list, anchors);
      return anchors;
    })
    .finally(() => pending.delete(list));
  pending.set(list, started);
  return started;
}

/** The last anchor at or before `offset`. */
export function anchorBefore(anchors: Anchor[], offset: number): Anchor | undefined {
  let low = 0;
  let high = anchors.length - 1;
  let found: Anchor | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (anchors[middle]!.position <= offset) {
      found = anchors[middle];
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
