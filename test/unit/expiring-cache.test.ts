import { describe, expect, it } from 'vitest';
import { createExpiringCache } from '../../server/expiring-cache';

/** A cache on a clock the test moves, and a load that counts its calls and answers when told. */
function setUp(maxEntries = 10) {
  let now = 0;
  const cache = createExpiringCache<string, string>({ ttlMs: 1_000, maxEntries, now: () => now });
  const loads: { key: string; answer: (value: string) => void; fail: (e: Error) => void }[] = [];
  const load = (key: string) => () =>
    new Promise<string>((resolve, reject) => loads.push({ key, answer: resolve, fail: reject }));
  return {
    cache,
    loads,
    get: (key: string) => cache.get(key, load(key)),
    advance: (ms: number) => (now += ms),
  };
}

describe('createExpiringCache', () => {
  it('works an answer out once for the callers that come meanwhile and within the TTL', async () => {
    const { loads, get, advance } = setUp();
    const first = [get('a'), get('a'), get('a')];
    expect(loads).toHaveLength(1);
    loads[0]!.answer('one');
    expect(await Promise.all(first)).toEqual(['one', 'one', 'one']);
    advance(999);
    expect(await get('a')).toBe('one');
    expect(loads).toHaveLength(1);
    advance(1);
    const again = get('a');
    expect(loads).toHaveLength(2);
    loads[1]!.answer('two');
    expect(await again).toBe('two');
  });

  it('keeps each key apart, and forgets one when asked', async () => {
    const { cache, loads, get } = setUp();
    const a = get('a');
    const b = get('b');
    loads[0]!.answer('A');
    loads[1]!.answer('B');
    expect([await a, await b]).toEqual(['A', 'B']);
    cache.delete('a');
    void get('a');
    void get('b');
    expect(loads.map((l) => l.key)).toEqual(['a', 'b', 'a']);
  });

  it('does not keep a failure: the next caller tries again', async () => {
    const { loads, get } = setUp();
    const failing = get('a');
    loads[0]!.fail(new Error('engine down'));
    await expect(failing).rejects.toThrow('engine down');
    void get('a');
    expect(loads).toHaveLength(2);
  });

  it('holds at most maxEntries keys, letting the oldest go', async () => {
    const { loads, get } = setUp(3);
    for (const key of ['a', 'b', 'c', 'd']) {
      const answer = get(key);
      loads.at(-1)!.answer(key.toUpperCase());
      await answer;
    }
    void get('b');
    void get('d');
    expect(loads).toHaveLength(4);
    void get('a');
    expect(loads.map((l) => l.key)).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
