import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { webhookDeliveryOutcomes } from '../../src/api/contract/webhooks';
import { at, createdAt, id, updatedAt } from './columns';
import { companies, users } from './schema';

/**
 * A company's webhook: where its events go, signed with a secret kept sealed (SecretBox). The row
 * is also the delivery queue: `lastEventId` is the cursor (the last event delivered or given up),
 * and the delivery worker claims due rows with FOR UPDATE SKIP LOCKED and a lease, so that one
 * event at a time is under way per subscription, in order, across processes.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /**
     * `company`: the company's own events. `customers`: a reseller's staff subscribes to the
     * events of all the reseller's customers (not its own staff company's).
     */
    scope: text('scope', { enum: ['company', 'customers'] })
      .notNull()
      .default('company'),
    url: text('url').notNull(),
    /** Action names, or `['*']`. */
    events: jsonb('events').$type<string[]>().notNull(),
    secretSealed: text('secret_sealed').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastEventId: bigint('last_event_id', { mode: 'number' }).notNull(),
    /** Attempts made so far at the event after the cursor, and when the first of them was. */
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: at('first_attempt_at'),
    /** When the event after the cursor may be tried (again). */
    runAfter: at('run_after').notNull(),
    /** A test event asked for and not sent yet. */
    testRequestedAt: at('test_requested_at'),
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason'),
    lockedBy: text('locked_by'),
    lockedUntil: at('locked_until'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_subscriptions_company_idx').on(t.companyId),
    index('webhook_subscriptions_due_idx')
      .on(t.runAfter)
      .where(sql`${t.disabledAt} is null`),
  ],
);

/** One attempt to deliver an event (or a test event, `eventId` 0) to a subscription. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    outcome: text('outcome').$type<(typeof webhookDeliveryOutcomes)[number]>().notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_deliveries_subscription_idx').on(t.subscriptionId, t.id)],
);
