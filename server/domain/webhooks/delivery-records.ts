import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, max, not, sql } from 'drizzle-orm';
import type { ActivityAction } from '../../../src/api/contract/activity';
import { ALL_EVENTS, type webhookDeliveryOutcomes } from '../../../src/api/contract/webhooks';
import type { Db, Tx } from '../../db/client';
import { events } from '../../db/event-schema';
import { webhookDeliveries, webhookSubscriptions } from '../../db/webhook-schema';
import { SYSTEM } from '../events/actor';
import type { EventRow } from '../events/hub';
import { nextCustomerEvent } from './customer-events';
import type { SendResult } from './send';
import { recordWebhookEvent } from './webhook-events';

export type Subscription = typeof webhookSubscriptions.$inferSelect;
type Outcome = (typeof webhookDeliveryOutcomes)[number];

const s = webhookSubscriptions;
/** The worker still holds the subscription: it was neither deleted nor taken over. */
const held = (workerId: string, sub: Subscription) =>
  and(eq(s.id, sub.id), eq(s.lockedBy, workerId));

/**
 * The first event after the cursor that the subscription wants; or, when none of those up to the
 * company's newest is wanted, that newest one's id, to move the cursor past them all. Events are
 * numbered in commit order per company, so none can appear later below the newest seen. Scope
 * `customers` reads its reseller's customers' events instead (`customer-events.ts`).
 */
export async function nextEvent(
  db: Db,
  sub: Subscription,
): Promise<{ event: EventRow } | { skipTo: number } | { committing: true } | undefined> {
  if (sub.scope === 'customers') return nextCustomerEvent(db, sub);
  const [newest] = await db
    .select({ seq: max(events.seq) })
    .from(events)
    .where(eq(events.companyId, sub.companyId));
  const top = newest?.seq ?? 0;
  if (top <= sub.lastEventId) return undefined;
  const wanted = sub.events.includes(ALL_EVENTS)
    ? undefined
    : inArray(events.action, sub.events as ActivityAction[]);
  const [event] = (await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.companyId, sub.companyId),
        gt(events.seq, sub.lastEventId),
        lte(events.seq, top),
        wanted,
        // Its own creation is committed with it, numbered after the cursor it started with.
        not(
          and(
            eq(events.action, 'webhook.create'),
            eq(events.subjectType, 'webhook'),
            eq(events.subjectId, sub.id),
          )!,
        ),
      ),
    )
    .orderBy(asc(events.seq))
    .limit(1)) as EventRow[];
  return event ? { event } : { skipTo: top };
}

/** Adds an attempt to the subscription's log, which keeps its latest `keep` attempts only. */
async function logDelivery(tx: Tx, keep: number, row: typeof webhookDeliveries.$inferInsert) {
  await tx.insert(webhookDeliveries).values(row);
  const d = webhookDeliveries;
  const oldestKept = tx
    .select({ id: d.id })
    .from(d)
    .where(eq(d.subscriptionId, row.subscriptionId))
    .orderBy(desc(d.id))
    .offset(keep - 1)
    .limit(1);
  await tx
    .delete(d)
    .where(and(eq(d.subscriptionId, row.subscriptionId), lt(d.id, sql`(${oldestKept})`)));
}

export interface Attempt {
  at: Date;
  event: EventRow;
  attempt: number;
  result: SendResult;
  outcome: Outcome;
  /** The subscription's cursor and retry state after this attempt. */
  next: Partial<Pick<Subscription, 'lastEventId' | 'attempts' | 'firstAttemptAt' | 'runAfter'>>;
}

/** Logs an event's attempt and moves the subscription on, releasing it; false if it was lost. */
export async function recordAttempt(
  db: Db,
  workerId: string,
  sub: Subscription,
  attempt: Attempt,
  keep: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [kept] = await tx
      .update(s)
      .set({ ...attempt.next, lockedBy: null, lockedUntil: null, updatedAt: attempt.at })
      .where(held(workerId, sub))
      .returning({ id: s.id });
    if (!kept) return false;
    await logDelivery(tx, keep, {
      subscriptionId: sub.id,
      at: attempt.at,
      eventId: attempt.event.seq,
      action: attempt.event.action,
      attempt: attempt.attempt,
      statusCode: attempt.result.statusCode,
      latencyMs: attempt.result.latencyMs,
      outcome: attempt.outcome,
      error: attempt.result.error,
    });
    return true;
  });
}

/** Logs a test event's one attempt; a test asked for again meanwhile stays asked for. */
export async function recordTest(
  db: Db,
  workerId: string,
  sub: Subscription,
  test: { at: Date; result: SendResult; outcome: Outcome },
  keep: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [kept] = await tx
      .update(s)
      .set({ testRequestedAt: null })
      .where(and(held(workerId, sub), eq(s.testRequestedAt, sub.testRequestedAt!)))
      .returning({ id: s.id });
    if (!kept) return;
    await logDelivery(tx, keep, {
      subscriptionId: sub.id,
      at: test.at,
      eventId: 0,
      action: 'test',
      attempt: 1,
      statusCode: test.result.statusCode,
      latencyMs: test.result.latencyMs,
      outcome: test.outcome,
      error: test.result.error,
    });
  });
}

/** Disables the subscription unless it already is; answers whether this call did. */
export async function disableSubscription(
  db: Db,
  sub: Subscription,
  at: Date,
  reason: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(s)
      .set({ disabledAt: at, disabledReason: reason, updatedAt: at })
      .where(and(eq(s.id, sub.id), isNull(s.disabledAt)))
      .returning();
    if (!done) return false;
    await recordWebhookEvent(tx, done, 'webhook.disable', {
      at,
      actor: SYSTEM,
      detail: { reason },
    });
    return true;
  });
}
