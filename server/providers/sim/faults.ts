import { EngineRejection, ProviderRejection, ProviderUnavailable, type TaskFault } from '../driver';

/** What the sim can be told to do wrong, for tests and demonstrations of failure handling. */

export type SimAction =
  | 'create'
  | 'start'
  | 'stop'
  | 'reboot'
  | 'resize'
  | 'rebuild'
  | 'delete'
  | 'snapshot'
  | 'restore'
  | 'snapshot-delete'
  | 'console'
  | 'network'
  | 'port'
  | 'ip'
  | 'health';

export type SimFault =
  /**
   * The call is accepted, but the task it starts ends in failure with this message (as a refusal
   * the driver wrote for the user: it is shown as it is).
   */
  | { kind: 'fail'; action: SimAction; message: string; times?: number }
  /**
   * The call itself fails as an unreachable engine would (the caller should retry), with the
   * engine's words when given (an `ssh` error naming a host, say).
   */
  | { kind: 'unavailable'; action: SimAction | 'any'; message?: string; times?: number }
  /**
   * The call itself is refused, as virsh or Nova refuse one. `words: 'engine'` (the default): in
   * the engine's own words, which may name hosts and addresses (`capacity`: for want of room);
   * `words: 'user'`: a refusal the driver wrote for the user about their own request.
   */
  | {
      kind: 'refuse';
      action: SimAction;
      message: string;
      words?: 'engine' | 'user';
      capacity?: boolean;
      times?: number;
    }
  /** The call answers only after this many milliseconds. */
  | { kind: 'slow'; action: SimAction | 'any'; delayMs: number; times?: number };

export class SimUnavailableError extends ProviderUnavailable {
  constructor(message = 'sim engine unavailable') {
    super(message);
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

  /** Runs the slow, unavailable and refusing faults armed for a call. */
  async beforeCall(action: SimAction): Promise<void> {
    const slow = this.take('slow', action);
    if (slow) await new Promise((resolve) => setTimeout(resolve, slow.delayMs));
    const unavailable = this.take('unavailable', action);
    if (unavailable) throw new SimUnavailableError(unavailable.message);
    const refused = this.take('refuse', action);
    if (refused?.words === 'user') throw new ProviderRejection(refused.message);
    if (refused) {
      throw new EngineRejection(refused.message, refused.capacity ? 'capacity' : 'refused');
    }
  }

  /** The failure message the task started by this call will end with, if one is armed. */
  failureFor(action: SimAction): string | null {
    return this.take('fail', action)?.message ?? null;
  }
}

/**
 * A task's fault as the sim reports it: the failure messages armed here stand for refusals the
 * driver wrote for the user, so they are shown as they are (`refuse` and `unavailable` faults
 * stand for the engine's own words).
 */
export const simTaskFault = (message: string | null): TaskFault | null =>
  message === null ? null : { engineText: message, kind: 'refused', userMessage: message };
