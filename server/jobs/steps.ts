import type { Db, Tx } from '../db/client';
import type { SecretBox } from '../domain/secrets';
import type { ProviderDriver, TaskFault } from '../providers/driver';
import { publicFailure, type FailureSubject } from '../providers/public-failure';
import type { OperationRow } from './operations';

/** What ends an operation sees: no database handle and no driver (see `succeeded`). */
export interface EndContext<S> {
  op: OperationRow;
  /** What the operation works on, as its step loaded it. */
  subject: S;
  secrets: SecretBox;
  now: Date;
}

export interface StepContext<S> extends EndContext<S> {
  driver: ProviderDriver;
  db: Db;
}

/**
 * `observed`: what the poll saw at the provider, handed to `succeeded`. A failure's `message` is
 * what users see (statuses, the operation's error, the activity event); `cause`, the engine's own
 * words behind it, goes only to the log.
 */
export type PollOutcome =
  'wait' | { ok: true; observed?: unknown } | { ok: false; message: string; cause?: string | null };

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
   * These two run inside the transaction that ends the operation: they get `tx` and no other
   * handle, because on PGlite any other query (a driver's too) would wait for it for ever.
   */
  succeeded(tx: Tx, ctx: EndContext<S>, observed: unknown): Promise<void>;
  failed(tx: Tx, ctx: EndContext<S>, message: string): Promise<void>;
}

/** A failure in the product's own words (no engine text in them). */
export const failure = (message: string): PollOutcome => ({ ok: false, message });

/** A failure the engine reports (a thrown error, or a task's fault), told to users by its kind. */
export function failedAtProvider(reported: unknown, subject: FailureSubject): PollOutcome {
  const { reason, cause } = publicFailure(reported, subject);
  return { ok: false, message: reason, cause };
}

/** The task's fault when it has one, else the product's own words. */
export const faultOr = (fault: TaskFault | null, subject: FailureSubject, otherwise: string) =>
  fault ? failedAtProvider(fault, subject) : failure(otherwise);
export const done: PollOutcome = { ok: true };
