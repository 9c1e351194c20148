import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/client';
import type { Actor } from '../domain/events/actor';
import { recordEvent, type EventInput } from '../domain/events/record';
import { operations } from './schema';

export const vmOperationKinds = [
  'vm.create',
  'vm.start',
  'vm.stop',
  'vm.reboot',
  'vm.resize',
  'vm.reinstall',
  'vm.delete',
] as const;
export type VmOperationKind = (typeof vmOperationKinds)[number];

/** A VM's snapshots: taken, restored (the VM's disk goes back) and deleted. */
export const snapshotOperationKinds = ['vm.snapshot', 'vm.restore', 'vm.snapshotDelete'] as const;
export type SnapshotOperationKind = (typeof snapshotOperationKinds)[number];

export const networkOperationKinds = [
  'network.create',
  'network.update',
  'network.delete',
  'port.attach',
  'port.detach',
  'ip.allocate',
  'ip.release',
] as const;
export type NetworkOperationKind = (typeof networkOperationKinds)[number];
export type OperationKind = VmOperationKind | SnapshotOperationKind | NetworkOperationKind;

export type OperationRow = typeof operations.$inferSelect;

/** Tells the reconciler that there is new work, so it need not wait for its next look. */
export interface JobQueue {
  nudge(): void;
}

/**
 * What the event log says of an operation: who asked, for what, on what. Its `requested` event is
 * written with the operation, its `succeeded` or `failed` event when the worker ends it.
 */
export type OperationActivity = Pick<
  EventInput,
  'actor' | 'action' | 'subject' | 'teamId' | 'networkId' | 'detail'
>;

/**
 * Writes an operation in the caller's transaction: it exists if and only if the change that asks
 * for it is committed. The client token makes every driver call of the operation idempotent.
 */
export async function enqueueOperation(
  tx: Tx,
  input: {
    companyId: number;
    /** The VM, or the network, the operation works on (an interface's operations name its VM). */
    vmId?: number;
    networkId?: number;
    kind: OperationKind;
    payload?: Record<string, unknown>;
    activity: OperationActivity;
    now: Date;
  },
): Promise<number> {
  const { actor, ...activity } = input.activity;
  const [row] = await tx
    .insert(operations)
    .values({
      companyId: input.companyId,
      vmId: input.vmId ?? null,
      networkId: input.networkId ?? null,
      kind: input.kind,
      payload: { ...input.payload, activity },
      requestedBy: actor,
      clientToken: randomUUID(),
      runAfter: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: operations.id });
  await recordEvent(tx, {
    ...input.activity,
    companyId: input.companyId,
    outcome: 'requested',
    operationId: row!.id,
    at: input.now,
  });
  return row!.id;
}

/** The activity an operation was written with (operations written before the log have none). */
export const activityOf = (op: OperationRow): Omit<OperationActivity, 'actor'> | undefined =>
  op.payload.activity as Omit<OperationActivity, 'actor'> | undefined;

export const requesterOf = (op: OperationRow): Actor | null => op.requestedBy ?? null;
