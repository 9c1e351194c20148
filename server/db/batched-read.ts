interface Waiter<R> {
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads by key that arrive while one is under way wait for it to end and then go together, as one
 * query. A busy process makes one round trip for many requests instead of one each, and every
 * request still gets what the database held after it arrived: its read starts after it does.
 * An idle process reads at once. `at` is the latest `at` of the keys read together.
 */
export function batchedRead<K, R>(
  read: (keys: K[], at: Date) => Promise<Map<K, R>>,
): (key: K, at: Date) => Promise<R | undefined> {
  let waiting = new Map<K, Waiter<R>[]>();
  let latest: Date | undefined;
  let reading = false;

  function readWaiting() {
    const batch = waiting;
    const at = latest!;
    waiting = new Map();
    latest = undefined;
    reading = true;
    const settle = (each: (waiter: Waiter<R>, key: K) => void) => {
      reading = false;
      for (const [key, waiters] of batch) for (const waiter of waiters) each(waiter, key);
      if (waiting.size > 0) readWaiting();
    };
    // A read that throws rather than rejecting must not leave the callers waiting for ever.
    new Promise<Map<K, R>>((resolve) => resolve(read([...batch.keys()], at))).then(
      (found) => settle((waiter, key) => waiter.resolve(found.get(key))),
      (error: unknown) => settle((waiter) => waiter.reject(error)),
    );
  }

  return (key, at) =>
    new Promise((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!latest || at > latest) latest = at;
      if (!reading) readWaiting();
    });
}
