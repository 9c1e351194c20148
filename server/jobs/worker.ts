import { passLoop } from './pass-loop';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db, Tx } from '../db/client';
import { SYSTEM } from '../domain/events/actor';
import { recordEvent } from '../domain/events/record';
import { recordVmStatusSince, vmSnapshot } from '../domain/events/vm-events';
import { holdSuspendedVm } from '../domain/reseller/suspension-power';
import type { SecretBox } from '../domain/secrets';
import type { Metrics } from '../metrics/metrics';
import { ProviderRejection } from '../providers/driver';
import { publicFailure, publicReason, type FailureSubject } from '../providers/public-failure';
import type { DriverMap } from '../providers/registry';
import { inSpan } from '../telemetry/spans';
import { activityOf, requesterOf, type JobQueue, type OperationRow } from './operations';
import { operationQueueFigures } from './queue-figures';
import { operations } from './schema';
import { interfaceSteps } from './interface-steps';
import { networkSteps } from './network-steps';
import { snapshotSteps } from './snapshot-steps';
import {
  NotReady,
  type EndContext,
  type OperationStep,
  type PollOutcome,
  type StepContext,
} from './steps';
import { vmSteps } from './vm-steps';

/** Each step works on its own kind of subject; the worker only passes it along. */
type AnyStep = OperationStep<never>;
const steps: Record<string, AnyStep> = {
  ...(vmSteps as Record<string, AnyStep>),
  ...(networkSteps as Record<string, AnyStep>),
  ...(interfaceSteps as Record<string, AnyStep>),
  ...(snapshotSteps as Record<string, AnyStep>),
};
const stepOf = (kind: string): AnyStep | undefined => steps[kind];

export interface ReconcilerOptions {
  db: Db;
  clock: Clock;
  drivers: DriverMap;
  secrets: SecretBox;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  workerId?: string;
  /** How long a claimed operation stays this worker's before another may take it over. */
  leaseMs?: number;
  /** How often an operation under way is polled. */
  pollMs?: number;
  /** How often an idle worker looks for due work (a nudge wakes it at once). */
  idleMs?: number;
  batchSize?: number;
  /** Failed driver calls (unreachable engine) before the operation fails. */
  maxAttempts?: number;
  /** How long an operation may take in all. */
  timeoutMs?: number;
  /** Where operations' ends and retries are counted, and the queue read at each scrape. */
  metrics?: Metrics;
}

export interface Reconciler extends JobQueue {
  readonly workerId: string;
  /** Claims the operations due now and takes each one step; answers how many it took. */
  runOnce(): Promise<number>;
  /** Runs steps until nothing is due now (tests, with a clock moved by hand). */
  drain(): Promise<void>;
  start(): void;
  /** Claims no more; resolves once the steps under way have ended. */
  stop(): Promise<void>;
  /**
   * Hands back, in one statement, every operation this worker holds (at shutdown), so that
   * another process takes them over now rather than once the lease runs out. A step still under
   * way here may end later: what it would write is then dropped (it holds the operation no more),
   * and the client token makes the other process's repeated driver call harmless. Answers how
   * many it handed back.
   */
  releaseLeases(): Promise<number>;
}

/** The operation's `succeeded` or `failed` event, in the name of whoever asked for it. */
async function recordEnd(
  tx: Tx,
  op: OperationRow,
  outcome: Exclude<PollOutcome, 'wait'>,
  at: Date,
): Promise<void> {
  const activity = activityOf(op);
  if (!activity) return;
  await recordEvent(tx, {
    ...activity,
    companyId: op.companyId,
    actor: requesterOf(op) ?? SYSTEM,
    outcome: outcome.ok ? 'succeeded' : 'failed',
    operationId: op.id,
    detail: outcome.ok ? activity.detail : { ...activity.detail, reason: outcome.message },
    at,
  });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What an operation's failures are told of: its network, or the server of its VM. */
const subjectOf = (op: OperationRow): FailureSubject =>
  op.kind.startsWith('network.') ? 'network' : 'server';

/** Where a log line about an operation points: the operation and what it works on. */
const logEntry = (op: OperationRow) => ({
  operationId: op.id,
  kind: op.kind,
  ...(op.vmId === null ? {} : { vmId: op.vmId }),
  ...(op.networkId === null ? {} : { networkId: op.networkId }),
});

/** The engine's words behind a failed outcome, for its log line (never for users). */
const causeOf = (outcome: Exclude<PollOutcome, 'wait'>) =>
  !outcome.ok && outcome.cause ? { cause: outcome.cause } : {};

/**
 * What the engine threw, as the operation's outcome: users are told its public reason (in the
 * VM's status, the operation's error and the activity event); its words go to the log.
 */
const thrownOutcome = (op: OperationRow, error: unknown) => {
  const { reason, cause } = publicFailure(error, subjectOf(op));
  return { ok: false as const, message: reason, cause };
};

/**
 * The reconciler: claims due operations with FOR UPDATE SKIP LOCKED and a lease, so that several
 * server processes share the work (a step that outlives its lease may be run again by another
 * process; the client token makes the repeated driver call harmless); drives the
 * driver; polls until the server reaches a terminal state; and records the outcome with the VM's
 * new status in one transaction. A lease left by a process that died is taken over when it ends,
 * and the client token makes the repeated driver call harmless.
 */
export function createReconciler(options: ReconcilerOptions): Reconciler {
  const {
    db,
    clock,
    drivers,
    secrets,
    log,
    leaseMs = 15_000,
    pollMs = 1_000,
    idleMs = 1_000,
    batchSize = 5,
    maxAttempts = 8,
    timeoutMs = 15 * 60_000,
  } = options;
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const later = (ms: number) => new Date(clock.now().getTime() + ms);
  const { metrics } = options;
  metrics?.track({ operationQueue: () => operationQueueFigures(db, clock.now()) });
  /** An operation this worker ended, counted once (not when another process had taken it over). */
  const counted = (op: OperationRow, outcome: 'succeeded' | 'failed', at: Date) => {
    const labels = { kind: op.kind, outcome };
    metrics?.operations.inc(labels);
    metrics?.operationDuration.observe(labels, (at.getTime() - op.createdAt.getTime()) / 1000);
  };

  async function claim(): Promise<OperationRow[]> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: operations.id })
        .from(operations)
        .where(
          and(
            inArray(operations.status, ['pending', 'running']),
            lte(operations.runAfter, now),
            or(isNull(operations.lockedUntil), lt(operations.lockedUntil, now)),
          ),
        )
        .orderBy(asc(operations.runAfter), asc(operations.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(operations)
        .set({ status: 'running', lockedBy: workerId, lockedUntil: later(leaseMs), updatedAt: now })
        .where(
          inArray(
            operations.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  /** This worker still holds the operation: nobody took it over after a lease ran out. */
  const mine = (op: OperationRow) =>
    and(eq(operations.id, op.id), eq(operations.lockedBy, workerId));

  async function release(op: OperationRow, values: Partial<OperationRow>, tx: Db | Tx = db) {
    return tx
      .update(operations)
      .set({ ...values, lockedBy: null, lockedUntil: null, updatedAt: clock.now() })
      .where(mine(op))
      .returning({ id: operations.id });
  }

  async function finish(
    ctx: EndContext<never>,
    step: AnyStep,
    outcome: Exclude<PollOutcome, 'wait'>,
    attempts = ctx.op.attempts,
  ) {
    const ending = {
      status: outcome.ok ? ('succeeded' as const) : ('failed' as const),
      lastError: outcome.ok ? null : outcome.message,
      attempts,
      finishedAt: ctx.now,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: ctx.now,
    };
    const stillOpen = and(mine(ctx.op), inArray(operations.status, ['pending', 'running']));
    let endedHere = false;
    try {
      await db.transaction(async (tx) => {
        const [ended] = await tx
          .update(operations)
          .set(ending)
          .where(stillOpen)
          .returning({ id: operations.id });
        if (!ended) return;
        endedHere = true;
        const before = ctx.op.vmId === null ? undefined : await vmSnapshot(tx, ctx.op.vmId);
        if (outcome.ok) await step.succeeded(tx, ctx, outcome.observed);
        else await step.failed(tx, ctx, outcome.message);
        if (before) await recordVmStatusSince(tx, before, SYSTEM, ctx.now);
        await recordEnd(tx, ctx.op, outcome, ctx.now);
        // A VM of a suspended company that runs again is stopped at once, its stop due now.
        await holdSuspendedVm(tx, ctx.op, ctx.now);
      });
    } catch (error) {
      // The outcome could not be written with its effects: record the operation as failed on its
      // own, so that it is not retried for ever, and say so loudly.
      log.error(
        { ...logEntry(ctx.op), error: errorText(error), ...causeOf(outcome) },
        'operation outcome could not be recorded',
      );
      await db
        .update(operations)
        .set({ ...ending, status: 'failed', lastError: 'The outcome could not be recorded' })
        .where(stillOpen);
      counted(ctx.op, 'failed', ctx.now);
      return;
    }
    if (endedHere) counted(ctx.op, outcome.ok ? 'succeeded' : 'failed', ctx.now);
    const entry = logEntry(ctx.op);
    if (outcome.ok) log.info(entry, 'operation succeeded');
    else log.warn({ ...entry, error: outcome.message, ...causeOf(outcome) }, 'operation failed');
  }

  async function step(op: OperationRow): Promise<void> {
    const step = stepOf(op.kind);
    const loaded = step ? await step.load(db, op) : undefined;
    if (!step || !loaded) {
      const message = `Cannot run ${op.kind}: ${!step ? 'unknown kind' : 'its subject is gone'}`;
      await db.transaction(async (tx) => {
        const now = clock.now();
        const [ended] = await release(
          op,
          { status: 'failed', lastError: message, finishedAt: now },
          tx,
        );
        if (ended) await recordEnd(tx, op, { ok: false, message }, now);
        if (ended) counted(op, 'failed', now);
      });
      return;
    }
    const driver = drivers.get(loaded.driverKind);
    if (!driver) {
      // Its subject goes back to where it was, rather than waiting for ever in a transition.
      const message = `No ${loaded.driverKind} driver runs in this process`;
      await finish({ op, subject: loaded.subject, secrets, now: clock.now() }, step, {
        ok: false,
        message,
      });
      return;
    }
    const ctx: StepContext<never> = {
      op,
      subject: loaded.subject,
      driver,
      db,
      secrets,
      now: clock.now(),
    };

    if (ctx.now.getTime() - op.createdAt.getTime() > timeoutMs) {
      await finish(ctx, step, { ok: false, message: publicReason('timeout', subjectOf(op)) });
      return;
    }

    try {
      if (!op.submittedAt) {
        const record = await step.submit(ctx);
        await db.transaction(async (tx) => {
          const [kept] = await tx
            .update(operations)
            .set({
              submittedAt: ctx.now,
              attempts: sql`${operations.attempts} + 1`,
              lastError: null,
              runAfter: later(pollMs),
              lockedBy: null,
              lockedUntil: null,
              updatedAt: ctx.now,
            })
            .where(mine(op))
            .returning({ id: operations.id });
          if (kept && record) await record(tx);
        });
        return;
      }
      const outcome = await step.poll(ctx);
      if (outcome === 'wait') await release(op, { runAfter: later(pollMs) });
      else await finish(ctx, step, outcome);
    } catch (error) {
      if (error instanceof NotReady) {
        await release(op, { lastError: error.message, runAfter: later(pollMs) });
        return;
      }
      if (error instanceof ProviderRejection) {
        await finish(ctx, step, thrownOutcome(op, error));
        return;
      }
      // The engine could not be reached: try again later, up to a point.
      const attempts = op.attempts + 1;
      const outcome = thrownOutcome(op, error);
      if (attempts >= maxAttempts) {
        await finish(ctx, step, outcome, attempts);
        return;
      }
      log.warn({ ...logEntry(op), attempts, cause: outcome.cause }, 'operation step failed');
      metrics?.operationRetries.inc({ kind: op.kind });
      await release(op, {
        attempts,
        lastError: outcome.message,
        runAfter: later(Math.min(60_000, 1_000 * 2 ** (attempts - 1))),
      });
    }
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    await Promise.all(
      claimed.map((op) =>
        inSpan(
          `operation ${op.kind}`,
          { 'launchpad.operation.kind': op.kind, 'launchpad.operation.attempts': op.attempts },
          () => step(op),
        ),
      ),
    );
    return claimed.length;
  }

  const passes = passLoop({ runOnce, idleMs, log, failure: 'reconciler pass failed' });

  return {
    workerId,
    runOnce,
    drain: passes.drain,
    nudge: passes.nudge,
    start: passes.start,
    stop: passes.stop,
    async releaseLeases() {
      const released = await db
        .update(operations)
        .set({ lockedBy: null, lockedUntil: null, updatedAt: clock.now() })
        .where(eq(operations.lockedBy, workerId))
        .returning({ id: operations.id });
      return released.length;
    },
  };
}
