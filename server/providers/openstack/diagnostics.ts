import type { GuestStats } from '../guest-usage';

/**
 * Nova's diagnostics of a libvirt guest in their first form (microversions before 2.48): libvirt's
 * own counters — `cpu<N>_time` per vCPU, `memory` (KiB), and the balloon's `memory-<stat>`. The
 * later, common form reports the memory allocated as "used", which says nothing of the guest.
 */
export const DIAGNOSTICS_VERSION = 'compute 2.47';

export function guestStatsOf(diagnostics: Record<string, unknown>): GuestStats {
  const number = (key: string) => {
    const value = diagnostics[key];
    return typeof value === 'number' ? value : null;
  };
  const cpuTimes = Object.keys(diagnostics)
    .filter((key) => /^cpu\d+_time$/.test(key))
    .map((key) => number(key) ?? 0);
  return {
    cpuTimeNs: cpuTimes.reduce((sum, time) => sum + time, 0),
    vcpus: Math.max(1, cpuTimes.length),
    memoryKib: number('memory-actual') ?? number('memory') ?? 0,
    availableKib: number('memory-available'),
    unusedKib: number('memory-unused'),
    rssKib: number('memory-rss'),
  };
}
