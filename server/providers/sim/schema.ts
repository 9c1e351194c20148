import { sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../../db/columns';
import type { NetworkSpec } from '../driver';
import { requestLedgerTable } from '../request-ledger';

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
  'rebuilding',
  'restoring',
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
  /** The generated key pair's public half, or null when only account keys were given. */
  publicKey: text('public_key'),
  /** Every key the guest was given (the generated one and the account keys). */
  authorizedKeys: text('authorized_keys')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  powerState: text('power_state', { enum: simPowerStates }).notNull(),
  /** The task under way and when it ends; the state moves lazily when it is read after that. */
  task: text('task', { enum: simTasks }),
  taskEndsAt: at('task_ends_at'),
  /** The size a resize goes to. */
  taskSizeKey: text('task_size_key'),
  /** The image a rebuild goes to, or the snapshot (`snapshot:<ref>`) a restore goes back to. */
  taskImageKey: text('task_image_key'),
  /** Set at the start of a task that is going to fail; becomes the error at its end. */
  taskFailure: text('task_failure'),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Every state-changing call, by its client token, so that a repeated call does nothing more. */
export const simRequests = requestLedgerTable('sim_requests');

export const simNetworkStates = ['building', 'active', 'updating', 'deleting', 'deleted'] as const;

export const simNetworks = pgTable('sim_networks', {
  id: id(),
  ref: text('ref').notNull().unique(),
  clientToken: text('client_token').notNull().unique(),
  regionKey: text('region_key').notNull(),
  /** The NetworkSpec it was given last. */
  spec: jsonb('spec').$type<NetworkSpec>().notNull(),
  state: text('state', { enum: simNetworkStates }).notNull(),
  /** When the state under way ends (building, updating, deleting). */
  stateEndsAt: at('state_ends_at'),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const simPortStates = ['attaching', 'active', 'detaching', 'deleted'] as const;

export const simPorts = pgTable('sim_ports', {
  id: id(),
  ref: text('ref').notNull().unique(),
  /** The attach call's token; null for a server's primary port, made with the server. */
  clientToken: text('client_token').unique(),
  serverRef: text('server_ref').notNull(),
  networkRef: text('network_ref').notNull(),
  fixedIp: text('fixed_ip'),
  macAddress: text('mac_address').notNull(),
  state: text('state', { enum: simPortStates }).notNull(),
  stateEndsAt: at('state_ends_at'),
  publicIp: text('public_ip'),
  /** A public address change under way: the address it ends with (null: released). */
  ipTaskEndsAt: at('ip_task_ends_at'),
  ipTaskTarget: text('ip_task_target'),
  taskFailure: text('task_failure'),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const simSnapshotStates = ['creating', 'available', 'deleting', 'deleted', 'error'] as const;

/** A sim server's snapshots, made and removed with their delays and faults like a server's. */
export const simSnapshots = pgTable('sim_snapshots', {
  id: id(),
  ref: text('ref').notNull().unique(),
  clientToken: text('client_token').notNull().unique(),
  serverRef: text('server_ref').notNull(),
  name: text('name').notNull(),
  /** The image the server ran when the snapshot was taken (a restore goes back to it). */
  imageKey: text('image_key').notNull(),
  state: text('state', { enum: simSnapshotStates }).notNull(),
  stateEndsAt: at('state_ends_at'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  taskFailure: text('task_failure'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
