import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USAGE_TTL_MS, UsageSampler, type GuestStats } from '../../server/providers/guest-usage';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A guest whose vCPU spends half of every wall-clock nanosecond working. */
function halfBusyGuest() {
  const stats = vi.fn(async (): Promise<GuestStats> => ({
    cpuTimeNs: Date.now() * 1e6 * 0.5,
    vcpus: 1,
    memoryKib: 1024,
    availableKib: 1000,
    unusedKib: 750,
    rssKib: null,
  }));
  return stats;
}

/** A read, with the fake clock moved over the sampler's pause between two looks. */
async function read(sampler: UsageSampler, stats: () => Promise<GuestStats>) {
  const answer = sampler.read('guest-1', stats);
  await vi.advanceTimersByTimeAsync(1_000);
  return answer;
}

describe('UsageSampler', () => {
  it('asks the engine once for reads within a few seconds, however many come at once', async () => {
    const sampler = new UsageSampler();
    const stats = halfBusyGuest();
    const together = [sampler.read('guest-1', stats), sampler.read('guest-1', stats)];
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await Promise.all(together)).toEqual([
      { cpu: 50, ram: 25 },
      { cpu: 50, ram: 25 },
    ]);
    // Two looks a quarter of a second apart, for both.
    expect(stats).toHaveBeenCalledTimes(2);
    const looks = stats.mock.calls.length;
    expect(await read(sampler, stats)).toEqual({ cpu: 50, ram: 25 });
    expect(stats.mock.calls.length).toBe(looks);

    await vi.advanceTimersByTimeAsync(USAGE_TTL_MS);
    expect(await read(sampler, stats)).toEqual({ cpu: 50, ram: 25 });
    // Later: one more look, measured against the last one.
    expect(stats.mock.calls.length).toBe(looks + 1);
  });

  it('asks again at once for a guest it was told to forget', async () => {
    const sampler = new UsageSampler();
    const stats = halfBusyGuest();
    await read(sampler, stats);
    const looks = stats.mock.calls.length;
    sampler.forget('guest-1');
    await read(sampler, stats);
    expect(stats.mock.calls.length).toBeGreaterThan(looks);
  });
});
