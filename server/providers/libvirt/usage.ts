import type { ServerState } from '../driver';
import { cpuPercent, memoryPercent, parseDomStats, usagePercent } from './domain-state';
import type { LibvirtHost } from './host';

type Sample = { at: number; cpuTimeNs: number };

/**
 * A guest's load from libvirt's domain statistics: CPU time used since the last look (or over a
 * quarter of a second, when there is no recent look), and memory in use.
 */
export class UsageSampler {
  private readonly samples = new Map<string, Sample>();

  async read(host: LibvirtHost, domain: string): Promise<ServerState['usage']> {
    const look = async () => {
      const stats = parseDomStats(
        await host.virsh(['domstats', domain, '--cpu-total', '--balloon', '--vcpu']),
      );
      return { stats, sample: { at: Date.now(), cpuTimeNs: stats.cpuTimeNs } };
    };
    try {
      let before = this.samples.get(domain);
      if (!before || Date.now() - before.at > 60_000) {
        before = (await look()).sample;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const { stats, sample } = await look();
      this.samples.set(domain, sample);
      return {
        cpu: cpuPercent(before, sample, stats.vcpus),
        ram: usagePercent(memoryPercent(stats)),
      };
    } catch {
      // The figures are a nicety: a guest that stops between two looks has none.
      return { cpu: 0, ram: 0 };
    }
  }

  forget(domain: string) {
    this.samples.delete(domain);
  }
}
