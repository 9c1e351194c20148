import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Clock } from '../../clock';
import { passLoop } from '../../jobs/pass-loop';
import type { Database, Db } from '../../db/client';
import { webhookSubscriptions } from '../../db/webhook-schema';
import type { Mailer } from '../../mail/transport';
import type { SecretBox } from '../secrets';
import { RefusedDestination, resolveDestination } from './address-guard';
import { eventsAfterCursor } from './customer-events';
import {
  disableSubscription,
  nextEvent,
  recordAttempt,
  recordTest,
  type Subscription,
} from './delivery-records';
import { mailAdminsOfDisabled } from './disabled-mail';
import { DELIVERY_TIMEOUT_MS, sendSigned, type SendResult } from './send';
import type { EventRow } from '../events/hub';
import { toActivityEvent } from '../events/visibility';

/** An event is retried for this long after its first attempt; then it is given up. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;

/** The pause after the n-th failed attempt: 30 s, doubling, at most an hour (about 30 in a day). */
export const retryPauseMs = (attempt: number) =>
  Math.min(60 * 60_000, 30_000 * 2 ** Math.min(attempt - 1, 20));

export interface WebhookDispatcherOptions {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  mailer: Mailer;
  /** WEBHOOK_ALLOW_PRIVATE: plain HTTP and private addresses allowed. */
  allowPrivate: boolean;
  /** Where the disabling e-mail points. */
  publicUrl: string;
  /** The database's LISTEN: a committed event wakes the worker at once. */
  listen?: Database['listen'];
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  workerId?: string;
  /** Longer than a delivery may take, so that no other worker takes over one under way. */
  leaseMs?: number;
  /** How often an idle worker looks for due deliveries (a committed event wakes it at once). */
  idleMs?: number;
  batchSize?: number;
  timeoutMs?: number;
  /** How many attempts each subscription's delivery log keeps (the API shows the latest 100). */
  deliveryLogSize?: number;
}

export interface WebhookDispatcher {
  /** Claims the subscriptions due now and takes each one step; answers how many it took. */
  runOnce(): Promise<number>;
  /** Runs steps until nothing is due now (tests, with a clock moved by hand). */
  drain(): Promise<void>;
  start(): Promise<void>;
  /** Claims no more; resolves once the deliveries under way have ended. */
  stop(): Promise<void>;
  /**
   * Hands back, in one statement, every subscription this worker holds (at shutdown), so that
   * another process delivers its events now rather than once the lease runs out. A delivery
   * still under way here may then be sent twice (delivery is at least once). Answers how many.
   */
  releaseLeases(): Promise<number>;
}

/**
 * The event as the activity log answers it; a customers-scoped subscription's also names the
 * company it happened in (an event of the log names none: the log is one company's).
 */
const payloadOf = (sub: Subscription, event: EventRow) =>
  sub.scope === 'customers'
    ? { ...toActivityEvent(event), companyId: event.companyId }
    : toActivityEvent(event);

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const succeeded = (result: SendResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
/** What went wrong, for the delivery log: the transport's words, or the answer's status. */
const failureOf = (result: SendResult) =>
  succeeded(result) ? null : (result.error ?? `HTTP ${result.statusCode}`);

/**
 * Delivers each subscription's events in order, one at a time: a subscription is claimed (FOR
 * UPDATE SKIP LOCKED and a lease, as the reconciler's operations) when a test event was asked for
 * or an event after its cursor exists and its pause is over; the event after the cursor is sent,
 * and the cursor moves only once it succeeded or was given up. Given up means 24 hours of
 * failures, and it disables the subscription and e-mails the company's Admins.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, clock, secrets, log, leaseMs = 60_000, idleMs = 2_000, batchSize = 10 } = options;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const keep = options.deliveryLogSize ?? 1_000;
  const workerId = options.workerId ?? `webhooks-${randomUUID()}`;
  const s = webhookSubscriptions;

  async function claim(): Promise<Subscription[]> {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: s.id })
        .from(s)
        .where(
          and(
            isNull(s.disabledAt),
            or(isNull(s.lockedUntil), lt(s.lockedUntil, now)),
            or(isNotNull(s.testRequestedAt), and(lte(s.runAfter, now), eventsAfterCursor)),
          ),
        )
        .orderBy(asc(s.runAfter), asc(s.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(s)
        .set({ lockedBy: workerId, lockedUntil: new Date(now.getTime() + leaseMs) })
        .where(
          inArray(
            s.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async function send(sub: Subscription, eventId: number, body: string): Promise<SendResult> {
    const url = new URL(sub.url);
    try {
      const destination = await resolveDestination(url, options.allowPrivate);
      return await sendSigned({
        url,
        destination,
        eventId,
        body,
        secret: secrets.open(sub.secretSealed),
        timestamp: Math.floor(clock.now().getTime() / 1000),
        timeoutMs,
      });
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      return { statusCode: null, latencyMs: null, error: error.message };
    }
  }

  async function sendTest(sub: Subscription) {
    const now = clock.now();
    const body = JSON.stringify({ id: 0, test: true, webhookId: sub.id, occurredAt: now });
    const result = await send(sub, 0, body);
    await recordTest(
      db,
      workerId,
      sub,
      {
        at: now,
        result: { ...result, error: failureOf(result) },
        outcome: succeeded(result) ? 'succeeded' : 'failed',
      },
      keep,
    );
  }

  /** Answers false when it only waited for a commit under way (no progress: no pass at once). */
  async function step(sub: Subscription): Promise<boolean> {
    if (sub.testRequestedAt) await sendTest(sub);
    const now = clock.now();
    const next = sub.runAfter <= now ? await nextEvent(db, sub) : undefined;
    if (!next || 'skipTo' in next || 'committing' in next) {
      await db
        .update(s)
        .set({
          lockedBy: null,
          lockedUntil: null,
          ...(next && 'skipTo' in next ? { lastEventId: next.skipTo } : {}),
        })
        .where(and(eq(s.id, sub.id), eq(s.lockedBy, workerId)));
      return !(next && 'committing' in next) || sub.testRequestedAt !== null;
    }
    const { event } = next;
    const attempt = sub.attempts + 1;
    const firstAttemptAt = sub.firstAttemptAt ?? now;
    const result = await send(sub, event.seq, JSON.stringify(payloadOf(sub, event)));
    const ok = succeeded(result);
    const givenUp = !ok && now.getTime() - firstAttemptAt.getTime() >= RETRY_WINDOW_MS;
    const error = failureOf(result);
    const kept = await recordAttempt(
      db,
      workerId,
      sub,
      {
        at: now,
        event,
        attempt,
        result: { ...result, error },
        outcome: ok ? 'succeeded' : givenUp ? 'failed' : 'retrying',
        next:
          ok || givenUp
            ? { lastEventId: event.seq, attempts: 0, firstAttemptAt: null, runAfter: now }
            : {
                attempts: attempt,
                firstAttemptAt,
                runAfter: new Date(now.getTime() + retryPauseMs(attempt)),
              },
      },
      keep,
    );
    if (!kept || !givenUp) return true;
    const reason = `Event ${event.seq} failed for 24 hours: ${error}`;
    if (!(await disableSubscription(db, sub, now, reason))) return true;
    await mailAdminsOfDisabled(db, options.mailer, {
      subscription: sub,
      eventId: event.seq,
      reason: error ?? '',
      publicUrl: options.publicUrl,
    }).catch((err: unknown) =>
      log.error({ webhookId: sub.id, error: errorText(err) }, 'webhook disabled mail failed'),
    );
    return true;
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    const moved = await Promise.all(
      claimed.map((sub) =>
        step(sub).catch((error: unknown) => {
          // The lease runs out and the step is tried again then.
          log.warn({ webhookId: sub.id, error: errorText(error) }, 'webhook step failed');
          return true;
        }),
      ),
    );
    // One that only waited for a customer's commit is taken again when that commit notifies.
    return moved.filter(Boolean).length;
  }

  const passes = passLoop({ runOnce, idleMs, log, failure: 'webhook pass failed' });
  let started = false;
  let unlisten: (() => Promise<void>) | undefined;

  return {
    runOnce,
    drain: passes.drain,
    async start() {
      if (started) return;
      started = true;
      // Listening first: an event committed once the first pass has run still wakes the next.
      unlisten = await options.listen?.(
        'launchpad_events',
        () => passes.nudge(),
        () => passes.nudge(),
      );
      if (started) passes.start();
    },
    async stop() {
      started = false;
      await passes.stop();
      await unlisten?.();
    },
    async releaseLeases() {
      const released = await db
        .update(s)
        .set({ lockedBy: null, lockedUntil: null })
        .where(eq(s.lockedBy, workerId))
        .returning({ id: s.id });
      return released.length;
    },
  };
}
