import type { GuestStats } from '../guest-usage';

/** What `virsh domstate --reason` and `virsh domstats` say, in the driver's terms. */

export interface DomainState {
  /** libvirt's state: running, paused, shut off, crashed, pmsuspended … */
  state: string;
  reason: string;
}

export function parseDomState(out: string): DomainState {
  const match = /^\s*([a-z ]+?)\s*\(([^)]*)\)\s*$/m.exec(out);
  if (match) return { state: match[1]!, reason: match[2]! };
  return { state: out.trim(), reason: '' };
}

export const isRunning = (s: DomainState) =>
  s.state === 'running' || s.state === 'paused' || s.state === 'in shutdown';
export const isShutOff = (s: DomainState) => s.state === 'shut off' || s.state === 'crashed';

export function parseDomStats(out: string): GuestStats {
  const values = new Map<string, number>();
  for (const line of out.split('\n')) {
    const match = /^\s*([\w.-]+)=(\d+)\s*$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]));
  }
  return {
    cpuTimeNs: values.get('cpu.time') ?? 0,
    vcpus: values.get('vcpu.current') ?? 1,
    memoryKib: values.get('balloon.current') ?? 0,
    availableKib: values.get('balloon.available') ?? null,
    unusedKib: values.get('balloon.unused') ?? null,
    rssKib: values.get('balloon.rss') ?? null,
  };
}
