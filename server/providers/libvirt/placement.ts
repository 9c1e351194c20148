import { ProviderRejection, ProviderUnavailable } from '../driver';
import type { LibvirtHost } from './host';

/** What QEMU needs beyond the guest's memory, when choosing a host. */
const OVERHEAD_KIB = 256 * 1024;

/** Free memory as the kernel counts what it can give back (free, buffers and page cache). */
async function freeKib(host: LibvirtHost): Promise<number> {
  const out = await host.virsh(['nodememstats']);
  const value = (name: string) =>
    Number(new RegExp(`^${name}\\s*:\\s*(\\d+)`, 'm').exec(out)?.[1] ?? 0);
  return value('free') + value('buffers') + value('cached');
}

/**
 * The host with the most memory free, if it has enough for a guest of `ramGb`. Hosts that cannot
 * be reached are passed over; none reachable at all is the engine being unavailable.
 */
export async function placeServer(
  hosts: LibvirtHost[],
  regionKey: string,
  ramGb: number,
): Promise<LibvirtHost> {
  const seen: { host: LibvirtHost; free: number }[] = [];
  let unreachable: unknown;
  for (const host of hosts) {
    try {
      seen.push({ host, free: await freeKib(host) });
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      unreachable = error;
    }
  }
  if (seen.length === 0) throw unreachable ?? new ProviderUnavailable('No host is reachable');
  seen.sort((a, b) => b.free - a.free);
  const best = seen[0]!;
  if (best.free < ramGb * 1024 * 1024 + OVERHEAD_KIB) {
    const gib = (best.free / 1024 / 1024).toFixed(1);
    throw new ProviderRejection(
      `No host in ${regionKey} has ${ramGb} GiB of memory free (the most is ${gib} GiB, on ${best.host.key})`,
    );
  }
  return best.host;
}
