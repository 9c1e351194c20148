import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { VmStatus } from '../../../src/api/contract/vms';
import type { Tx } from '../../db/client';
import { companies } from '../../db/schema';
import { suspendedVms, virtualMachines } from '../../db/vm-schema';
import { enqueueOperation } from '../../jobs/operations';
import { operations } from '../../jobs/schema';
import { SYSTEM, type Actor } from '../events/actor';
import { recordVmStatus, vmSubject, type VmSnapshot } from '../events/vm-events';
import { interfacesBusy } from '../networks/interfaces';

/**
 * The power changes of a suspension, written as a user's stop and start write them
 * (`vms/vm-actions.ts`): the VM's transitional status and the durable operation the reconciler
 * carries out, with their events, in the caller's transaction.
 */

/** The columns a VM's events name, for a select from `virtual_machines`. */
export const vmSnapshotColumns = {
  id: virtualMachines.id,
  companyId: virtualMachines.companyId,
  teamId: virtualMachines.teamId,
  name: virtualMachines.name,
  status: virtualMachines.status,
};

async function powerChange(
  tx: Tx,
  vm: VmSnapshot,
  change: { kind: 'vm.stop' | 'vm.start'; to: VmStatus; actor: Actor; now: Date },
) {
  const { kind, to, actor, now } = change;
  await tx
    .update(virtualMachines)
    .set({ status: to, statusMessage: null, updatedAt: now })
    .where(eq(virtualMachines.id, vm.id));
  await enqueueOperation(tx, {
    companyId: vm.companyId,
    vmId: vm.id,
    kind,
    payload: { from: vm.status },
    activity: { actor, action: kind, subject: vmSubject(vm), teamId: vm.teamId },
    now,
  });
  await recordVmStatus(tx, vm, to, actor, now);
}

/** Stops a running VM of a suspended company, and remembers to start it again on resume. */
export async function stopForSuspension(tx: Tx, vm: VmSnapshot, actor: Actor, now: Date) {
  await powerChange(tx, vm, { kind: 'vm.stop', to: 'Stopping', actor, now });
  await tx
    .insert(suspendedVms)
    .values({ vmId: vm.id, companyId: vm.companyId, stoppedAt: now })
    .onConflictDoNothing();
}

/** Starts a VM the suspension stopped. */
export const startOnResume = (tx: Tx, vm: VmSnapshot, actor: Actor, now: Date) =>
  powerChange(tx, vm, { kind: 'vm.start', to: 'Starting', actor, now });

/**
 * The reconciler's side of a suspension, once an operation on a VM has ended (in the transaction
 * that ends it): a VM of a suspended company that runs again (a start, reset, resize, creation or
 * interface change under way when the company was suspended) is stopped in the system's name and
 * remembered, so that nothing the reconciler finishes undoes the suspension. A failed stop is not
 * tried again (it would fail for ever); the VM stays remembered. Answers whether it stopped one.
 */
export async function holdSuspendedVm(
  tx: Tx,
  op: { vmId: number | null; kind: string },
  now: Date,
): Promise<boolean> {
  if (op.vmId === null || op.kind === 'vm.stop' || op.kind === 'vm.delete') return false;
  const [vm] = await tx
    .select(vmSnapshotColumns)
    .from(virtualMachines)
    .innerJoin(companies, eq(companies.id, virtualMachines.companyId))
    .where(
      and(
        eq(virtualMachines.id, op.vmId),
        eq(virtualMachines.status, 'Running'),
        isNull(virtualMachines.deletedAt),
        isNotNull(companies.suspendedAt),
      ),
    );
  if (!vm) return false;
  // Another operation on the VM still under way ends later, and is held then.
  const [open] = await tx
    .select({ id: operations.id })
    .from(operations)
    .where(and(eq(operations.vmId, vm.id), inArray(operations.status, ['pending', 'running'])))
    .limit(1);
  if (open || (await interfacesBusy(tx, vm.id))) return false;
  await stopForSuspension(tx, vm, SYSTEM, now);
  return true;
}
