import { ProviderUnavailable } from '../driver';

/** What the sim can be told to do wrong, for tests and demonstrations of failure handling. */

export type SimAction =
  | 'create'
  | 'start'
  | 'stop'
  | 'reboot'
  | 'resize'
  | 'delete'
  | 'console'
  | 'network'
  | 'port'
  | 'ip'
  | 'health';

export type SimFault =
  /** The call is accepted, but the task it starts ends in failure with this message. */
  | { kind: 'fail'; action: SimAction; message: string; times?: number }
  /** The call itself fails as an unreachable engine would (the caller should retry). */
  | { kind: 'unavailable'; action: SimAction | 'any'; times?: number }
  /** The call answers only after this many milliseconds. */
  | { kind: 'slow'; action: SimAction | 'any'; delayMs: number; times?: number };

export class SimUnavailableError extends ProviderUnavailable {
  constructor() {
    super('sim engine unavailable');
    this.name = 'SimUnavailableError';
  }
}

interface Armed {
  fault: SimFault;
  left: number;
}

/** Faults armed in this process; each fires `times` times (default once), then disarms. */
export class SimFaults {
  private armed: Armed[] = [];

  inject(fault: SimFault) {
    this.armed.push({ fault, left: fault.times ?? 1 });
  }

  clear() {
    this.armed = [];
  }

  private take<K extends SimFault['kind']>(
    kind: K,
    action: SimAction,
  ): Extract<SimFault, { kind: K }> | undefined {
    const found = this.armed.find(
      (a) => a.fault.kind === kind && (a.fault.action === action || a.fault.action === 'any'),
    );
    if (!found) return undefined;
    found.left -= 1;
    if (found.left <= 0) this.armed = this.armed.filter((a) => a !== found);
    return found.fault as Extract<SimFault, { kind: K }>;
  }

  /** Runs the slow and unavailable faults armed for a call. */
  async beforeCall(action: SimAction): Promise<void> {
    const slow = this.take('slow', action);
    if (slow) await new Promise((resolve) => setTimeout(resolve, slow.delayMs));
    if (this.take('unavailable', action)) throw new SimUnavailableError();
  }

  /** The failure message the task started by this call will end with, if one is armed. */
  failureFor(action: SimAction): string | null {
    return this.take('fail', action)?.message ?? null;
  }
}
