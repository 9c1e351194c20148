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

export interface DomainStats {
  cpuTimeNs: number;
  vcpus: number;
  /** KiB; the guest's own figures when its balloon driver reports them. */
  memoryKib: number;
  availableKib: number | null;
  unusedKib: number | null;
  rssKib: number | null;
}

export function parseDomStats(out: string): DomainStats {
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

/** Memory in use as a percentage: the guest's view when it reports one, else the process's. */
export function memoryPercent(stats: DomainStats): number {
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

export const usagePercent = round;
