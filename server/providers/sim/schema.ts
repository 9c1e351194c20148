import { pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../../db/columns';

/**
 * The sim engine's own state. It lives in the product's database so that it survives a restart
 * and is shared by every server process, like a real engine's API would be.
 */

export const simPowerStates = ['building', 'running', 'shutoff', 'error', 'deleted'] as const;
export type SimPowerState = (typeof simPowerStates)[number];
export const simTasks = [
  'spawning',
  'powering-on',
  'powering-off',
  'rebooting',
  'resizing',
  'deleting',
] as const;
export type SimTask = (typeof simTasks)[number];

export const simServers = pgTable('sim_servers', {
  id: id(),
  ref: text('ref').notNull().unique(),
  /** The create call's idempotency token. */
  clientToken: text('client_token').notNull().unique(),
  name: text('name').notNull(),
  regionKey: text('region_key').notNull(),
  imageKey: text('image_key').notNull(),
  sizeKey: text('size_key').notNull(),
  publicKey: text('public_key').notNull(),
  powerState: text('power_state', { enum: simPowerStates }).notNull(),
  /** The task under way and when it ends; the state moves lazily when it is read after that. */
  task: text('task', { enum: simTasks }),
  taskEndsAt: at('task_ends_at'),
  /** The size a resize goes to. */
  taskSizeKey: text('task_size_key'),
  /** Set at the start of a task that is going to fail; becomes the error at its end. */
  taskFailure: text('task_failure'),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Every state-changing call, by its client token, so that a repeated call does nothing more. */
export const simRequests = pgTable('sim_requests', {
  clientToken: text('client_token').primaryKey(),
  action: text('action').notNull(),
  ref: text('ref').notNull(),
  createdAt: createdAt(),
});
