import { eq } from 'drizzle-orm';
import type { VmStatus } from '../../../src/api/contract/vms';
import type { Tx } from '../../db/client';
import { virtualMachines } from '../../db/vm-schema';
import { closeRunPeriod, openRunPeriod } from '../vms/vm-usage';
import type { Actor } from './actor';
import { recordEvent } from './record';

/** What a VM's events name: the VM as it is in the transaction now. */
export interface VmSnapshot {
  id: number;
  companyId: number;
  teamId: number | null;
  name: string;
  status: VmStatus;
}

export async function vmSnapshot(tx: Tx, vmId: number): Promise<VmSnapshot | undefined> {
  const [vm] = await tx
    .select({
      id: virtualMachines.id,
      companyId: virtualMachines.companyId,
      teamId: virtualMachines.teamId,
      name: virtualMachines.name,
      status: virtualMachines.status,
    })
    .from(virtualMachines)
    .where(eq(virtualMachines.id, vmId));
  return vm;
}

export const vmSubject = (vm: Pick<VmSnapshot, 'id' | 'name'>) => ({
  type: 'vm' as const,
  id: vm.id,
  name: vm.name,
});

/**
 * `vm.status` from -> to, when the status did change. Every change of a VM's status comes here,
 * so this is also where its run periods open and close (a VM runs while its status is Running),
 * at the event's moment: usage for billing counts them.
 */
export async function recordVmStatus(
  tx: Tx,
  vm: VmSnapshot,
  to: VmStatus,
  actor: Actor,
  at: Date,
): Promise<void> {
  if (vm.status === to) return;
  if (to === 'Running') await openRunPeriod(tx, { companyId: vm.companyId, vmId: vm.id, at });
  else if (vm.status === 'Running') await closeRunPeriod(tx, vm.id, at);
  await recordEvent(tx, {
    companyId: vm.companyId,
    actor,
    subject: vmSubject(vm),
    action: 'vm.status',
    outcome: 'observed',
    teamId: vm.teamId,
    detail: { from: vm.status, to },
    at,
  });
}

/** Records the status change made since `before` was read in this transaction, if any. */
export async function recordVmStatusSince(
  tx: Tx,
  before: VmSnapshot,
  actor: Actor,
  at: Date,
): Promise<void> {
  const now = await vmSnapshot(tx, before.id);
  if (now)
    await recordVmStatus(
      tx,
      { ...before, name: now.name, teamId: now.teamId },
      now.status,
      actor,
      at,
    );
}
