import type { Db, Tx } from '../db/client';
import type { SecretBox } from '../domain/secrets';
import type { ProviderDriver } from '../providers/driver';
import type { OperationRow } from './operations';

export interface StepContext<S> {
  op: OperationRow;
  /** What the operation works on, as its step loaded it. */
  subject: S;
  driver: ProviderDriver;
  db: Db;
  secrets: SecretBox;
  now: Date;
}

/** `observed`: what the poll saw at the provider, handed to `succeeded`. */
export type PollOutcome =
  'wait' | { ok: true; observed?: unknown } | { ok: false; message: string };

/** The driver call cannot be made yet (something it needs is still being built): try later. */
export class NotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotReady';
  }
}

/** One kind of operation: what it works on, the driver call, its progress, and what its end writes. */
export interface OperationStep<S> {
  /** The subject and the kind of driver that serves it; undefined when the subject is gone. */
  load(db: Db, op: OperationRow): Promise<{ subject: S; driverKind: string } | undefined>;
  /** Makes the driver call; may answer what to record with it (e.g. the provider's new ref). */
  submit(ctx: StepContext<S>): Promise<((tx: Tx) => Promise<void>) | void>;
  poll(ctx: StepContext<S>): Promise<PollOutcome>;
  /**
   * These two run inside the transaction that ends the operation: they must use `tx` only, and
   * never call the driver (on PGlite any other query would wait for the transaction for ever).
   */
  succeeded(tx: Tx, ctx: StepContext<S>, observed: unknown): Promise<void>;
  failed(tx: Tx, ctx: StepContext<S>, message: string): Promise<void>;
}

export const failure = (message: string): PollOutcome => ({ ok: false, message });
export const done: PollOutcome = { ok: true };
