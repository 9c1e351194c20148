import { bigint, boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from '../../db/columns';
import type { NetworkSpec } from '../driver';
import { requestLedgerTable } from '../request-ledger';

/**
 * The libvirt driver's control-plane records, as Nova and Neutron keep theirs: what was asked for
 * (by client token), where it was placed, and the task under way. The truth about a guest's power
 * state is libvirt's; the truth about a network is the host's (its bridge, router namespace,
 * dnsmasq and NAT rules), rebuilt from these records.
 */

export const lvTasks = ['spawning', 'powering-off', 'rebooting', 'resizing', 'rebuilding'] as const;
export type LvTask = (typeof lvTasks)[number];

export const lvServers = pgTable('lv_servers', {
  id: id(),
  ref: text('ref').notNull().unique(),
  clientToken: text('client_token').notNull().unique(),
  /** The host it was placed on (a `hosts[].key` of the configuration) and its libvirt name. */
  hostKey: text('host_key').notNull(),
  domain: text('domain').notNull(),
  name: text('name').notNull(),
  regionKey: text('region_key').notNull(),
  imageKey: text('image_key').notNull(),
  sizeKey: text('size_key').notNull(),
  /** The task under way, its phase, and since when (for the boot and shutdown time-outs). */
  task: text('task', { enum: lvTasks }),
  phase: text('phase'),
  taskStartedAt: at('task_started_at'),
  taskSizeKey: text('task_size_key'),
  /** The image a rebuild lays down, or `snapshot:<ref>` for a restore. */
  taskImageKey: text('task_image_key'),
  /** Whether the server runs again once the task is over (a resize of a running server). */
  taskResume: boolean('task_resume').notNull().default(false),
  fault: text('fault'),
  deleted: boolean('deleted').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const lvNetworks = pgTable('lv_networks', {
  id: id(),
  ref: text('ref').notNull().unique(),
  clientToken: text('client_token').notNull().unique(),
  regionKey: text('region_key').notNull(),
  spec: jsonb('spec').$type<NetworkSpec>().notNull(),
  deleted: boolean('deleted').notNull().default(false),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const lvPorts = pgTable('lv_ports', {
  id: id(),
  ref: text('ref').notNull().unique(),
  /** The attach call's token; null for a server's primary port, made with the server. */
  clientToken: text('client_token').unique(),
  serverRef: text('server_ref').notNull(),
  networkId: integer('network_id').notNull(),
  networkRef: text('network_ref').notNull(),
  fixedIp: text('fixed_ip'),
  macAddress: text('mac_address').notNull(),
  publicIp: text('public_ip'),
  /** The attach failed: the port is gone at the host and this says why. */
  fault: text('fault'),
  deleted: boolean('deleted').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Every state-changing call by its client token, so that a repeated call does nothing more. */
export const lvRequests = requestLedgerTable('lv_requests');

/** A guest's snapshots, each a qcow2 file of its own on its host, by the client token. */
export const lvSnapshots = pgTable('lv_snapshots', {
  id: id(),
  ref: text('ref').notNull().unique(),
  clientToken: text('client_token').notNull().unique(),
  serverRef: text('server_ref').notNull(),
  name: text('name').notNull(),
  /** The image the guest ran when it was taken (a restore goes back to it). */
  imageKey: text('image_key').notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  deleted: boolean('deleted').notNull().default(false),
  fault: text('fault'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
