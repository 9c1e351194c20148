import { LRUCache } from 'lru-cache';
import type { ServerState } from './driver';

/** A guest's counters as libvirt keeps them (through virsh, or through Nova's diagnostics). */
export interface GuestStats {
  /** CPU time used by all its vCPUs since it started. */
  cpuTimeNs: number;
  vcpus: number;
  /** KiB; the guest's own figures when its balloon driver reports them. */
  memoryKib: number;
  availableKib: number | null;
  unusedKib: number | null;
  rssKib: number | null;
}

/** Memory in use as a percentage: the guest's view when it reports one, else the process's. */
export function memoryPercent(stats: GuestStats): number {
  if (stats.availableKib && stats.unusedKib !== null) {
    return ((stats.availableKib - stats.unusedKib) / stats.availableKib) * 100;
  }
  if (stats.rssKib && stats.memoryKib) return (stats.rssKib / stats.memoryKib) * 100;
  return 0;
}

const round = (v: number) => Math.round(Math.min(100, Math.max(0, v)) * 10) / 10;

/** CPU use between two samples, as a percentage of the guest's vCPUs. */
export function cpuPercent(
  before: { at: number; cpuTimeNs: number },
  after: { at: number; cpuTimeNs: number },
  vcpus: number,
): number {
  const wallNs = (after.at - before.at) * 1e6;
  if (wallNs <= 0) return 0;
  return round(((after.cpuTimeNs - before.cpuTimeNs) / wallNs / Math.max(1, vcpus)) * 100);
}

/**
 * Figures this recent are answered again: a details page polled by several viewers costs the host
 * one look (a command on it, and a pause) every few seconds, not one each.
 */
export const USAGE_TTL_MS = 5_000;
/** Guests whose recent figures are kept; more than a host runs, fewer than would weigh. */
const RECENT_GUESTS = 10_000;

type Sample = { at: number; cpuTimeNs: number };

/**
 * A guest's load: CPU time used since the last look (or over a quarter of a second, when there is
 * no recent look), and memory in use; the same figures again for USAGE_TTL_MS.
 */
export class UsageSampler {
  private readonly samples = new Map<string, Sample>();
  // Reads that come while a guest is measured share that one measurement (lru-cache's fetch).
  private readonly recent = new LRUCache<
    string,
    ServerState['usage'],
    () => Promise<ServerState['usage']>
  >({
    max: RECENT_GUESTS,
    ttl: USAGE_TTL_MS,
    ttlResolution: 0,
    perf: Date,
    fetchMethod: (_guest, _stale, { context }) => context(),
  });

  async read(guest: string, stats: () => Promise<GuestStats>): Promise<ServerState['usage']> {
    // measure() never rejects, so fetch always has a value to answer.
    return (await this.recent.fetch(guest, { context: () => this.measure(guest, stats) }))!;
  }

  private async measure(
    guest: string,
    stats: () => Promise<GuestStats>,
  ): Promise<ServerState['usage']> {
    const look = async () => {
      const now = await stats();
      return { now, sample: { at: Date.now(), cpuTimeNs: now.cpuTimeNs } };
    };
    try {
      let before = this.samples.get(guest);
      if (!before || Date.now() - before.at > 60_000) {
        before = (await look()).sample;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const { now, sample } = await look();
      this.samples.set(guest, sample);
      return { cpu: cpuPercent(before, sample, now.vcpus), ram: round(memoryPercent(now)) };
    } catch {
      // The figures are a nicety: a guest that stops between two looks has none.
      return { cpu: 0, ram: 0 };
    }
  }

  forget(guest: string) {
    this.samples.delete(guest);
    this.recent.delete(guest);
  }
}
