import { EngineRejection, ProviderUnavailable } from '../driver';
import type { LibvirtHost } from './host';

/** What QEMU needs beyond the guest's memory, when choosing a host. */
const OVERHEAD_KIB = 256 * 1024;
const GIB_KIB = 1024 * 1024;

/**
 * What a host can still give a guest: what is left of its memory once the guests placed there
 * have theirs (as a scheduler counts, so that a guest's memory is its own even before it uses it),
 * and no more than the kernel has free now (free, buffers and page cache).
 */
async function availableKib(host: LibvirtHost, allocatedGb: number): Promise<number> {
  const out = await host.virsh(['nodememstats']);
  const value = (name: string) =>
    Number(new RegExp(`^${name}\\s*:\\s*(\\d+)`, 'm').exec(out)?.[1] ?? 0);
  const free = value('free') + value('buffers') + value('cached');
  return Math.min(free, value('total') - allocatedGb * GIB_KIB);
}

/**
 * The host with the most memory available, if it has enough for a guest of `ramGb`. Hosts that
 * cannot be reached are passed over; none reachable at all is the engine being unavailable.
 */
export async function placeServer(
  hosts: LibvirtHost[],
  regionKey: string,
  ramGb: number,
  allocatedGb: ReadonlyMap<string, number>,
): Promise<LibvirtHost> {
  const seen: { host: LibvirtHost; free: number }[] = [];
  let unreachable: unknown;
  for (const host of hosts) {
    try {
      seen.push({ host, free: await availableKib(host, allocatedGb.get(host.key) ?? 0) });
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      unreachable = error;
    }
  }
  if (seen.length === 0) throw unreachable ?? new ProviderUnavailable('No host is reachable');
  // Stable: of hosts with as much available, the first configured.
  const best = seen.reduce((a, b) => (b.free > a.free ? b : a));
  if (best.free < ramGb * GIB_KIB + OVERHEAD_KIB) {
    const gib = (Math.max(0, best.free) / GIB_KIB).toFixed(1);
    // For the log: users are told only that there is no room (not the hosts nor their memory).
    throw new EngineRejection(
      `No host in ${regionKey} has ${ramGb} GiB of memory free (the most is ${gib} GiB, on ${best.host.key})`,
      'capacity',
    );
  }
  return best.host;
}
