import { and, count, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { ActivityAction } from '../../../src/api/contract/activity';
import type { TeamPermission } from '../../../src/api/contract/permissions';
import {
  SNAPSHOTS_PER_VM,
  snapshotMessages,
  type SnapshotList,
} from '../../../src/api/contract/vm-snapshots';
import { vmMessages, vmRules, type VmStatus } from '../../../src/api/contract/vms';
import type { CompanyLimits } from '../../config';
import type { Db, Tx } from '../../db/client';
import { vmSnapshots } from '../../db/self-service-schema';
import { virtualMachines } from '../../db/vm-schema';
import { conflict, HttpError, notFound } from '../../http-error';
import { enqueueOperation, type SnapshotOperationKind } from '../../jobs/operations';
import { operations } from '../../jobs/schema';
import { userActor } from '../events/actor';
import { recordVmStatus, vmSubject } from '../events/vm-events';
import { requireRoom } from '../limits/room';
import { interfacesBusy } from '../networks/interfaces';
import { teamRoleOf, type Caller } from '../tenancy/access';
import { findVisibleVm, requireVmPermission, type VmRecord } from './vm-access';

/**
 * A VM's snapshots. Each write checks the caller's role and the VM's state under the VM's row
 * lock (then the snapshot's), and writes the change with the operation that carries it out.
 * Snapshot operations of one VM run one at a time, and none runs beside another operation of
 * the VM: an engine's disk is not snapshotted while it is resized, rebuilt or deleted.
 */

type SnapshotRow = typeof vmSnapshots.$inferSelect;

const live = (vmId: number) => and(eq(vmSnapshots.vmId, vmId), isNull(vmSnapshots.deletedAt));

/** A snapshot of the VM is being taken, restored or deleted. */
export async function snapshotsBusy(tx: Db | Tx, vmId: number): Promise<boolean> {
  const [busy] = await tx
    .select({ id: vmSnapshots.id })
    .from(vmSnapshots)
    .where(and(live(vmId), inArray(vmSnapshots.status, ['creating', 'restoring', 'deleting'])))
    .limit(1);
  return busy !== undefined;
}

/** The VM was deleted and its delete is still under way (its snapshots going with it). */
async function beingDeleted(tx: Tx, caller: Caller, vmId: number): Promise<boolean> {
  const [vm] = await tx
    .select({ teamId: virtualMachines.teamId })
    .from(virtualMachines)
    .innerJoin(
      operations,
      and(
        eq(operations.vmId, virtualMachines.id),
        eq(operations.kind, 'vm.delete'),
        inArray(operations.status, ['pending', 'running']),
      ),
    )
    .where(
      and(
        eq(virtualMachines.id, vmId),
        eq(virtualMachines.companyId, caller.companyId),
        isNotNull(virtualMachines.deletedAt),
      ),
    )
    .limit(1);
  if (!vm) return false;
  return (
    caller.isAdmin ||
    (vm.teamId !== null && (await teamRoleOf(tx, caller, vm.teamId)) !== undefined)
  );
}

/** The VM, locked, for a snapshot write: 409 while it is being deleted, else as the VM rules. */
async function lockVm(tx: Tx, caller: Caller, vmId: number, permission: TeamPermission) {
  try {
    return (await requireVmPermission(tx, caller, vmId, permission, { lock: true })).vm;
  } catch (error) {
    if (
      error instanceof HttpError &&
      error.statusCode === 404 &&
      (await beingDeleted(tx, caller, vmId))
    ) {
      throw conflict(snapshotMessages.vmBeingDeleted);
    }
    throw error;
  }
}

/** 409 unless the VM is at rest, running or not, with nothing else under way on it. */
async function requireVmAtRest(tx: Tx, vm: VmRecord, allowError = false) {
  if (vm.status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
  if (vmRules.isTransitional(vm.status)) throw conflict(vmMessages.busy);
  if (!vmRules.canSnapshot(vm.status) && !(allowError && vm.status === 'Error')) {
    throw conflict(snapshotMessages.vmNotAtRest);
  }
  if (await snapshotsBusy(tx, vm.id)) throw conflict(snapshotMessages.busy);
  if (await interfacesBusy(tx, vm.id)) throw conflict(vmMessages.busy);
}

const shown = (row: SnapshotRow) => ({
  id: row.id,
  vmId: row.vmId,
  name: row.name,
  status: row.status,
  statusMessage: row.statusMessage,
  sizeBytes: row.sizeBytes,
  createdAt: row.createdAt,
});

/** The VM's snapshots, newest first; whoever sees the VM sees them. */
export async function listSnapshots(db: Db, caller: Caller, vmId: number): Promise<SnapshotList> {
  await findVisibleVm(db, caller, vmId);
  const rows = await db
    .select()
    .from(vmSnapshots)
    .where(live(vmId))
    .orderBy(desc(vmSnapshots.createdAt), desc(vmSnapshots.id));
  return { snapshots: rows.map(shown), maxPerVm: SNAPSHOTS_PER_VM };
}

/** The operation and its `requested` event, in the name of the caller, on the VM. */
async function enqueue(
  tx: Tx,
  caller: Caller,
  vm: VmRecord,
  snapshot: Pick<SnapshotRow, 'id' | 'name'>,
  kind: SnapshotOperationKind,
  now: Date,
) {
  const actor = await userActor(tx, caller.userId);
  await enqueueOperation(tx, {
    companyId: caller.companyId,
    vmId: vm.id,
    kind,
    payload: { snapshotId: snapshot.id, from: vm.status },
    activity: {
      actor,
      action: kind satisfies ActivityAction,
      subject: vmSubject(vm),
      teamId: vm.teamId,
      detail: { snapshot: snapshot.name },
    },
    now,
  });
  return actor;
}

/**
 * Takes a snapshot of a VM at rest: at most `SNAPSHOTS_PER_VM` per VM, and within the company's
 * (and its reseller's) `snapshots` limits. The VM stays as it is while it is taken.
 */
export async function createSnapshot(
  db: Db,
  caller: Caller,
  vmId: number,
  name: string,
  options: { now: Date; limits: CompanyLimits },
): Promise<number> {
  return db.transaction(async (tx) => {
    const vm = await lockVm(tx, caller, vmId, 'vm.operate');
    await requireVmAtRest(tx, vm);
    const [held] = await tx.select({ n: count() }).from(vmSnapshots).where(live(vm.id));
    if ((held?.n ?? 0) >= SNAPSHOTS_PER_VM) throw conflict(snapshotMessages.perVmLimit);
    await requireRoom(
      tx,
      { companyId: caller.companyId, regionId: vm.regionId, quotas: options.limits },
      { snapshots: 1 },
    );
    const [row] = await tx
      .insert(vmSnapshots)
      .values({
        companyId: caller.companyId,
        vmId: vm.id,
        name,
        imageId: vm.imageId,
        status: 'creating',
        createdAt: options.now,
      })
      .returning({ id: vmSnapshots.id });
    await enqueue(tx, caller, vm, { id: row!.id, name }, 'vm.snapshot', options.now);
    return row!.id;
  });
}

/**
 * The snapshot, locked, and its VM, locked first (every snapshot write locks in this order):
 * 404 for one of another company, or of a VM the caller does not see.
 */
async function lockSnapshot(tx: Tx, caller: Caller, snapshotId: number) {
  const byId = and(
    eq(vmSnapshots.id, snapshotId),
    eq(vmSnapshots.companyId, caller.companyId),
    isNull(vmSnapshots.deletedAt),
  );
  const [found] = await tx.select({ vmId: vmSnapshots.vmId }).from(vmSnapshots).where(byId);
  if (!found) throw notFound(snapshotMessages.notFound);
  let vm: VmRecord;
  try {
    vm = await lockVm(tx, caller, found.vmId, 'vm.operate');
  } catch (error) {
    // Its VM out of the caller's sight: the snapshot is too.
    if (error instanceof HttpError && error.statusCode === 404)
      throw notFound(snapshotMessages.notFound);
    throw error;
  }
  const [snapshot] = await tx.select().from(vmSnapshots).where(byId).for('update');
  if (!snapshot) throw notFound(snapshotMessages.notFound);
  return { vm, snapshot };
}

/**
 * Puts the VM's disk back as it was in the snapshot: the VM shows Restoring until it is done,
 * then runs again if it ran.
 */
export async function restoreSnapshot(db: Db, caller: Caller, snapshotId: number, now: Date) {
  await db.transaction(async (tx) => {
    const { vm, snapshot } = await lockSnapshot(tx, caller, snapshotId);
    if (snapshot.status !== 'available') throw conflict(snapshotMessages.notAvailable);
    await requireVmAtRest(tx, vm);
    await tx
      .update(vmSnapshots)
      .set({ status: 'restoring', statusMessage: null })
      .where(eq(vmSnapshots.id, snapshot.id));
    const status: VmStatus = 'Restoring';
    await tx
      .update(virtualMachines)
      .set({ status, statusMessage: null, updatedAt: now })
      .where(eq(virtualMachines.id, vm.id));
    const actor = await enqueue(tx, caller, vm, snapshot, 'vm.restore', now);
    await recordVmStatus(tx, vm, status, actor, now);
  });
}

/**
 * Deletes an available snapshot, or one a failed take or delete left in error; it leaves the
 * list once the provider has deleted it. A VM in Error may still lose its snapshots.
 */
export async function deleteSnapshot(db: Db, caller: Caller, snapshotId: number, now: Date) {
  await db.transaction(async (tx) => {
    const { vm, snapshot } = await lockSnapshot(tx, caller, snapshotId);
    if (snapshot.status !== 'available' && snapshot.status !== 'error') {
      throw conflict(snapshotMessages.notAvailable);
    }
    await requireVmAtRest(tx, vm, true);
    await tx
      .update(vmSnapshots)
      .set({ status: 'deleting', statusMessage: null })
      .where(eq(vmSnapshots.id, snapshot.id));
    await enqueue(tx, caller, vm, snapshot, 'vm.snapshotDelete', now);
  });
}
