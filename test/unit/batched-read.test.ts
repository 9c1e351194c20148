import { describe, expect, it } from 'vitest';
import { batchedRead } from '../../server/db/batched-read';

/** A fake database: each read waits until the test answers it. */
function controlledReads() {
  const reads: {
    keys: string[];
    at: Date;
    answer: (rows: Record<string, number>) => void;
    fail: (error: Error) => void;
  }[] = [];
  const read = batchedRead<string, number>(
    (keys, at) =>
      new Promise((resolve, reject) => {
        reads.push({
          keys,
          at,
          answer: (rows) => resolve(new Map(Object.entries(rows))),
          fail: reject,
        });
      }),
  );
  return { read, reads };
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 6, minute));

describe('batchedRead', () => {
  it('reads at once when no read is under way', async () => {
    const { read, reads } = controlledReads();
    const row = read('a', at(0));
    expect(reads.map((r) => r.keys)).toEqual([['a']]);
    reads[0]!.answer({ a: 1 });
    await expect(row).resolves.toBe(1);
  });

  it('reads the keys that arrive during a read together, once each, after it', async () => {
    const { read, reads } = controlledReads();
    const first = read('a', at(0));
    const waiting = [read('b', at(2)), read('c', at(1)), read('b', at(1))];
    expect(reads).toHaveLength(1);

    reads[0]!.answer({ a: 1, b: 99 });
    await expect(first).resolves.toBe(1);
    await Promise.resolve();
    expect(reads.map((r) => r.keys)).toEqual([['a'], ['b', 'c']]);
    // The latest time of the callers read together: none of them is checked as of before it came.
    expect(reads[1]!.at).toEqual(at(2));

    reads[1]!.answer({ b: 2 });
    await expect(Promise.all(waiting)).resolves.toEqual([2, undefined, 2]);
  });

  it('fails only the callers of a failed read, and goes on with the next', async () => {
    const { read, reads } = controlledReads();
    const first = read('a', at(0));
    const next = read('b', at(0));
    reads[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await Promise.resolve();
    expect(reads.map((r) => r.keys)).toEqual([['a'], ['b']]);
    reads[1]!.answer({ b: 2 });
    await expect(next).resolves.toBe(2);
  });

  it('takes each read time from its own callers only', async () => {
    const { read, reads } = controlledReads();
    const late = read('a', at(30));
    reads[0]!.answer({ a: 1 });
    await late;
    const early = read('a', at(5));
    expect(reads[1]!.at).toEqual(at(5));
    reads[1]!.answer({ a: 1 });
    await early;
  });
});
