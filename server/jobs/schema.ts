import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../db/columns';
import { companies } from '../db/schema';
import type { Actor } from '../domain/events/actor';
import { networks } from '../db/network-schema';
import { virtualMachines } from '../db/vm-schema';

export const operationStatuses = ['pending', 'running', 'succeeded', 'failed'] as const;
export type OperationStatus = (typeof operationStatuses)[number];

/**
 * A durable piece of work against a provider, written in the same transaction as the change that
 * asks for it. The reconciler (`worker.ts`) claims due rows, drives the driver and records the
 * outcome; `clientToken` makes every driver call idempotent, so a retry after a crash is safe.
 */
export const operations = pgTable(
  'operations',
  {
    id: id(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    vmId: integer('vm_id').references(() => virtualMachines.id),
    networkId: integer('network_id').references(() => networks.id),
    kind: text('kind').notNull(),
    /** Who asked for it, named in the events of its end. */
    requestedBy: jsonb('requested_by').$type<Actor>(),
    /** What the kind needs beyond the VM (e.g. the target size of a resize). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    clientToken: text('client_token').notNull().unique(),
    status: text('status', { enum: operationStatuses }).notNull().default('pending'),
    /** Set once the driver has accepted the request; from then on the worker only polls. */
    submittedAt: at('submitted_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    runAfter: at('run_after').notNull(),
    /** The lease of the worker handling it; another may take over once it has passed. */
    lockedBy: text('locked_by'),
    lockedUntil: at('locked_until'),
    finishedAt: at('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('operations_due_idx')
      .on(t.runAfter)
      .where(sql`${t.status} in ('pending', 'running')`),
    index('operations_vm_idx').on(t.vmId),
    index('operations_network_idx').on(t.networkId),
  ],
);
