/** Answers worked out at most once per key every `ttlMs`; see createExpiringCache. */
export interface ExpiringCache<K, V> {
  /** The key's answer if it is recent or being worked out, else what `load` answers. */
  get(key: K, load: () => Promise<V>): Promise<V>;
  /** Forgets the key: the next `get` works it out again. */
  delete(key: K): void;
}

interface Entry<V> {
  value: Promise<V>;
  /** When the answer came; null while it is being worked out. */
  settledAt: number | null;
}

/**
 * For answers that cost another system work (an engine's health, a guest's load) and that anyone
 * may ask for in a loop: callers within `ttlMs` of an answer get it again, and callers that come
 * while it is being worked out share that one promise. A failure is not kept, so the next caller
 * tries again. At most `maxEntries` keys are kept; the one worked out longest ago goes first.
 */
export function createExpiringCache<K, V>(options: {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds; tests pass their own clock. */
  now?: () => number;
}): ExpiringCache<K, V> {
  const now = options.now ?? Date.now;
  const entries = new Map<K, Entry<V>>();

  return {
    get(key, load) {
      const known = entries.get(key);
      if (known && (known.settledAt === null || now() - known.settledAt < options.ttlMs)) {
        return known.value;
      }
      entries.delete(key);
      while (entries.size > 0 && entries.size >= options.maxEntries) {
        entries.delete(entries.keys().next().value!);
      }
      // A load that throws rather than rejecting is a failure like any other.
      const entry: Entry<V> = { value: (async () => load())(), settledAt: null };
      entries.set(key, entry);
      entry.value.then(
        () => {
          entry.settledAt = now();
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return entry.value;
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
