import { and, eq, inArray } from 'drizzle-orm';
import type { ActivityAction } from '../../../src/api/contract/activity';
import type { TeamPermission } from '../../../src/api/contract/permissions';
import { vmMessages, vmRules, type VmStatus } from '../../../src/api/contract/vms';
import { configurations, providerOffers } from '../../db/catalog-schema';
import type { CompanyLimits } from '../../config';
import type { Db, Tx } from '../../db/client';
import { virtualMachines } from '../../db/vm-schema';
import { badRequest, conflict, forbidden } from '../../http-error';
import { enqueueOperation, type VmOperationKind } from '../../jobs/operations';
import { requireTeamPermission, type Caller } from '../tenancy/access';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { recordVmStatus, vmSubject } from '../events/vm-events';
import { interfacesBusy } from '../networks/interfaces';
import { requireVmPermission, type VmRecord } from './vm-access';
import { requireVmRoom } from './vm-limits';
import { snapshotsBusy } from './vm-snapshots';

/**
 * The VM actions: each checks the caller's role and the VM's status under the row's lock, then
 * writes the new status and the operation that carries it out in one transaction.
 */

/** 409 unless the status allows the action; Provisioning and other transitions say so. */
function requireStatus(status: VmStatus, allowed: (s: VmStatus) => boolean, otherwise: string) {
  if (allowed(status)) return;
  if (status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
  if (vmRules.isTransitional(status)) throw conflict(vmMessages.busy);
  throw conflict(otherwise);
}

export async function transition(
  db: Db,
  caller: Caller,
  vmId: number,
  action: {
    permission: TeamPermission;
    allowed: (s: VmStatus) => boolean;
    refusal: string;
    kind: VmOperationKind;
    action: ActivityAction;
    /** What the VM becomes at once: a transitional status, or (a delete) gone from the lists. */
    change: { status: VmStatus } | { deletedAt: Date };
    now: Date;
    /**
     * Checks beyond the status, with the locked row; answers the operation's payload and what its
     * events say.
     */
    prepare?: (
      tx: Tx,
      vm: VmRecord,
    ) => Promise<{ payload: Record<string, unknown>; detail: Record<string, string> }>;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { vm } = await requireVmPermission(tx, caller, vmId, action.permission, { lock: true });
    requireStatus(vm.status, action.allowed, action.refusal);
    if (await interfacesBusy(tx, vm.id)) throw conflict(vmMessages.busy);
    if (await snapshotsBusy(tx, vm.id)) throw conflict(vmMessages.busy);
    const prepared = await action.prepare?.(tx, vm);
    await tx
      .update(virtualMachines)
      .set({ ...action.change, statusMessage: null, updatedAt: action.now })
      .where(eq(virtualMachines.id, vm.id));
    const actor = await userActor(tx, caller.userId);
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      vmId: vm.id,
      kind: action.kind,
      payload: { from: vm.status, ...prepared?.payload },
      activity: {
        actor,
        action: action.action,
        subject: vmSubject(vm),
        teamId: vm.teamId,
        ...(prepared && { detail: prepared.detail }),
      },
      now: action.now,
    });
    if ('status' in action.change) {
      await recordVmStatus(tx, vm, action.change.status, actor, action.now);
    }
  });
}

export const startVm = (db: Db, caller: Caller, vmId: number, now: Date) =>
  transition(db, caller, vmId, {
    permission: 'vm.operate',
    allowed: vmRules.canStart,
    refusal: vmMessages.mustBeStopped,
    kind: 'vm.start',
    action: 'vm.start',
    change: { status: 'Starting' },
    now,
  });

export const stopVm = (db: Db, caller: Caller, vmId: number, now: Date) =>
  transition(db, caller, vmId, {
    permission: 'vm.operate',
    allowed: vmRules.canStop,
    refusal: vmMessages.mustBeRunning,
    kind: 'vm.stop',
    action: 'vm.stop',
    change: { status: 'Stopping' },
    now,
  });

/** A reset is a reboot: the VM shows Starting until it runs again. */
export const resetVm = (db: Db, caller: Caller, vmId: number, now: Date) =>
  transition(db, caller, vmId, {
    permission: 'vm.operate',
    allowed: vmRules.canReset,
    refusal: vmMessages.mustBeRunning,
    kind: 'vm.reboot',
    action: 'vm.reset',
    change: { status: 'Starting' },
    now,
  });

/**
 * Only to a size with more cores that the VM's provider offers in its region, and within the
 * company's limits there: what the new size adds must fit.
 */
export const resizeVm = (
  db: Db,
  caller: Caller,
  input: { id: number; configurationId: number },
  now: Date,
  limits: CompanyLimits,
) =>
  transition(db, caller, input.id, {
    permission: 'vm.resize',
    allowed: vmRules.canResize,
    refusal: vmMessages.busy,
    kind: 'vm.resize',
    action: 'vm.upgrade',
    change: { status: 'Resizing' },
    now,
    async prepare(tx, vm) {
      const sizes = await tx
        .select({
          id: configurations.id,
          key: configurations.key,
          name: configurations.name,
          cpu: configurations.cpu,
          ram: configurations.ram,
        })
        .from(configurations)
        .where(inArray(configurations.id, [input.configurationId, vm.configurationId]));
      const target = sizes.find((s) => s.id === input.configurationId);
      const current = sizes.find((s) => s.id === vm.configurationId)!;
      if (!target || target.cpu <= current.cpu) {
        throw badRequest(vmMessages.upgradeNotLarger, 'configurationId');
      }
      const [offered] = await tx
        .select({ id: providerOffers.configurationId })
        .from(providerOffers)
        .where(
          and(
            eq(providerOffers.providerId, vm.providerId),
            eq(providerOffers.regionId, vm.regionId),
            eq(providerOffers.configurationId, target.id),
          ),
        );
      if (!offered) throw badRequest(vmMessages.upgradeNotOffered, 'configurationId');
      await requireVmRoom(
        tx,
        { companyId: caller.companyId, regionId: vm.regionId, limits },
        {
          vms: 0,
          cpu: target.cpu - current.cpu,
          // A resize under way counts at the larger of its two sizes: less RAM frees none yet.
          ram: Math.max(0, target.ram - current.ram),
        },
      );
      return {
        payload: { configurationId: target.id, sizeKey: target.key },
        detail: { from: current.name, to: target.name },
      };
    },
  });

/**
 * The VM leaves every list at once; its operation removes the server from the provider and closes
 * its usage. Refused while it provisions or another operation is under way.
 */
export const deleteVm = (db: Db, caller: Caller, vmId: number, now: Date) =>
  transition(db, caller, vmId, {
    permission: 'vm.delete',
    allowed: vmRules.canDelete,
    refusal: vmMessages.notDeletable,
    kind: 'vm.delete',
    action: 'vm.delete',
    change: { deletedAt: now },
    now,
  });

/**
 * Renames the VM and/or moves it between teams. Moving needs `vm.move` on both teams; taking a VM
 * out of every team is for Admins, the only ones who see such VMs.
 */
export async function editVm(
  db: Db,
  caller: Caller,
  vmId: number,
  input: { name?: string | undefined; teamId?: number | null | undefined },
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const moving = input.teamId !== undefined;
    const { vm } = await requireVmPermission(tx, caller, vmId, 'vm.edit', { lock: true });
    if (vm.status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
    if (moving && input.teamId !== vm.teamId) {
      if (vm.teamId !== null) await requireTeamPermission(tx, caller, vm.teamId, 'vm.move');
      if (input.teamId === null) {
        if (!caller.isAdmin) throw forbidden(vmMessages.noTeamAdminsOnly);
      } else {
        await requireTeamPermission(tx, caller, input.teamId!, 'vm.move');
      }
    }
    await tx
      .update(virtualMachines)
      .set({
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(moving ? { teamId: input.teamId } : {}),
        updatedAt: now,
      })
      .where(eq(virtualMachines.id, vm.id));
    const name = input.name ?? vm.name;
    const teamId = moving ? input.teamId! : vm.teamId;
    await recordEvent(tx, {
      companyId: caller.companyId,
      actor: await userActor(tx, caller.userId),
      subject: vmSubject({ id: vm.id, name }),
      action: 'vm.edit',
      outcome: 'succeeded',
      teamId,
      detail: {
        ...(name !== vm.name && { from: vm.name, to: name }),
        ...(teamId !== vm.teamId && { fromTeamId: vm.teamId, toTeamId: teamId }),
      },
      at: now,
    });
  });
}
