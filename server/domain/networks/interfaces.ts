import { and, asc, eq, inArray, isNull, notInArray, or } from 'drizzle-orm';
import {
  MAX_INTERFACES,
  networkMessages,
  PRIMARY_VMNIC,
  type AvailableNetwork,
  type NetworkAdapter,
} from '../../../src/api/contract/networks';
import { vmMessages } from '../../../src/api/contract/vms';
import type { CompanyLimits } from '../../config';
import type { Db, Tx } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { conflict, HttpError, notFound } from '../../http-error';
import { enqueueOperation } from '../../jobs/operations';
import type { Caller } from '../tenancy/access';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { vmSubject } from '../events/vm-events';
import { requireVmPermission, type VmRecord } from '../vms/vm-access';
import {
  allocatePrivateIp,
  freePublicIps,
  lockNetwork,
  newMacAddress,
  reservePublicIp,
} from './addresses';

/**
 * A VM's network interfaces and their public addresses. Interfaces are plugged and unplugged only
 * while the VM is stopped (the engines have no hot-plug); public addresses come and go while it
 * runs. Each change is an operation carried out by the reconciler.
 */

/**
 * A public address shows once the provider has NATed it, until its release is done: while it is
 * being allocated nothing should be offered on it yet, and while it is being released it is still
 * there.
 */
const shownPublicIp = inArray(publicIps.status, ['Active', 'Releasing']);

export async function listNetAdapters(
  db: Db,
  caller: Caller,
  vmId: number,
): Promise<NetworkAdapter[]> {
  await requireVmPermission(db, caller, vmId, 'vm.view');
  return db
    .select({
      id: vmInterfaces.id,
      vmnic: vmInterfaces.vmnic,
      networkId: networks.id,
      networkName: networks.name,
      cidrBlock: networks.cidrBlock,
      gatewayIp: networks.gatewayIp,
      privateIp: vmInterfaces.privateIp,
      macAddress: vmInterfaces.macAddress,
      publicIp: publicIps.address,
      snatEnabled: networks.snatEnabled,
      status: vmInterfaces.status,
      statusMessage: vmInterfaces.statusMessage,
    })
    .from(vmInterfaces)
    .innerJoin(networks, eq(networks.id, vmInterfaces.networkId))
    .leftJoin(publicIps, and(eq(publicIps.interfaceId, vmInterfaces.id), shownPublicIp))
    .where(eq(vmInterfaces.vmId, vmId))
    .orderBy(asc(vmInterfaces.vmnic));
}

/** The company's networks in the VM's region that the VM is not on yet. */
export async function listAvailableNetworks(
  db: Db,
  caller: Caller,
  vmId: number,
): Promise<AvailableNetwork[]> {
  const { vm } = await requireVmPermission(db, caller, vmId, 'vm.view');
  const joined = db
    .select({ id: vmInterfaces.networkId })
    .from(vmInterfaces)
    .where(eq(vmInterfaces.vmId, vm.id));
  return db
    .select({ id: networks.id, name: networks.name, cidrBlock: networks.cidrBlock })
    .from(networks)
    .where(
      and(
        eq(networks.companyId, caller.companyId),
        eq(networks.regionId, vm.regionId),
        isNull(networks.deletedAt),
        notInArray(networks.id, joined),
      ),
    )
    .orderBy(asc(networks.nameKey), asc(networks.id));
}

/** Interface changes need a stopped VM, and none of its other interfaces in the middle of one. */
function requireStoppedVm(vm: VmRecord) {
  if (vm.status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
  if (vm.status !== 'Stopped' && vm.status !== 'Shutoff') throw conflict(networkMessages.stopFirst);
}

/** Whether any of the VM's interfaces, or their addresses, is changing (VM actions wait for it). */
export async function interfacesBusy(tx: Db | Tx, vmId: number): Promise<boolean> {
  const [busy] = await tx
    .select({ id: vmInterfaces.id })
    .from(vmInterfaces)
    .leftJoin(publicIps, eq(publicIps.interfaceId, vmInterfaces.id))
    .where(
      and(
        eq(vmInterfaces.vmId, vmId),
        or(
          inArray(vmInterfaces.status, ['Attaching', 'Detaching']),
          inArray(publicIps.status, ['Allocating', 'Releasing']),
        ),
      ),
    )
    .limit(1);
  return busy !== undefined;
}

export async function addNetworkInterface(
  db: Db,
  caller: Caller,
  vmId: number,
  networkId: number,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { vm } = await requireVmPermission(tx, caller, vmId, 'vm.edit', { lock: true });
    const network = await lockNetwork(tx, caller.companyId, networkId);
    if (!network) throw notFound(networkMessages.notFound);
    requireStoppedVm(vm);
    if (network.regionId !== vm.regionId) throw conflict(networkMessages.otherRegion);
    const existing = await tx
      .select({ vmnic: vmInterfaces.vmnic, networkId: vmInterfaces.networkId })
      .from(vmInterfaces)
      .where(eq(vmInterfaces.vmId, vm.id));
    if (existing.some((i) => i.networkId === network.id)) {
      throw conflict(networkMessages.alreadyConnected);
    }
    if (existing.length >= MAX_INTERFACES) throw conflict(networkMessages.maxInterfaces);
    const used = new Set(existing.map((i) => i.vmnic));
    const vmnic = Array.from({ length: MAX_INTERFACES }, (_, i) => i + 1).find(
      (n) => !used.has(n),
    )!;
    const [row] = await tx
      .insert(vmInterfaces)
      .values({
        companyId: caller.companyId,
        vmId: vm.id,
        networkId: network.id,
        vmnic,
        privateIp: await allocatePrivateIp(tx, network),
        macAddress: newMacAddress(),
        status: 'Attaching',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: vmInterfaces.id });
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      vmId: vm.id,
      kind: 'port.attach',
      payload: { interfaceId: row!.id },
      activity: {
        actor: await userActor(tx, caller.userId),
        action: 'interface.add',
        subject: vmSubject(vm),
        teamId: vm.teamId,
        networkId: network.id,
        detail: { network: network.name, vmnic },
      },
      now,
    });
    return row!.id;
  });
}

export async function removeNetworkInterface(
  db: Db,
  caller: Caller,
  vmId: number,
  networkId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { vm } = await requireVmPermission(tx, caller, vmId, 'vm.edit', { lock: true });
    const [found] = await tx
      .select({ iface: vmInterfaces, networkName: networks.name })
      .from(vmInterfaces)
      .innerJoin(networks, eq(networks.id, vmInterfaces.networkId))
      .where(and(eq(vmInterfaces.vmId, vm.id), eq(vmInterfaces.networkId, networkId)));
    if (!found) throw notFound(networkMessages.interfaceNotFound);
    const { iface } = found;
    if (iface.vmnic === PRIMARY_VMNIC) throw conflict(networkMessages.primaryFixed);
    requireStoppedVm(vm);
    const [address] = await tx
      .select({ status: publicIps.status })
      .from(publicIps)
      .where(eq(publicIps.interfaceId, iface.id));
    if (
      iface.status === 'Attaching' ||
      iface.status === 'Detaching' ||
      address?.status === 'Allocating' ||
      address?.status === 'Releasing'
    ) {
      throw conflict(networkMessages.interfaceBusy);
    }
    const activity = {
      actor: await userActor(tx, caller.userId),
      action: 'interface.remove' as const,
      subject: vmSubject(vm),
      teamId: vm.teamId,
      networkId,
      detail: { network: found.networkName, vmnic: iface.vmnic },
    };
    // An interface that never got a port has nothing to unplug at the provider.
    if (iface.status === 'Error' && !iface.portRef) {
      await freePublicIps(tx, { interfaceIds: [iface.id] }, now);
      await tx.delete(vmInterfaces).where(eq(vmInterfaces.id, iface.id));
      await recordEvent(tx, {
        ...activity,
        companyId: caller.companyId,
        outcome: 'succeeded',
        at: now,
      });
      return;
    }
    await tx
      .update(vmInterfaces)
      .set({ status: 'Detaching', statusMessage: null, updatedAt: now })
      .where(eq(vmInterfaces.id, iface.id));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      vmId: vm.id,
      kind: 'port.detach',
      payload: { interfaceId: iface.id },
      activity,
      now,
    });
  });
}

/**
 * The interface (of a VM the caller may edit) with its network and address, read after the VM is
 * locked, so that a concurrent change of the VM's interfaces has either finished or not begun.
 */
async function editableInterface(tx: Tx, caller: Caller, interfaceId: number) {
  const notThere = () => notFound(networkMessages.interfaceNotFound);
  const [owner] = await tx
    .select({ vmId: vmInterfaces.vmId })
    .from(vmInterfaces)
    .where(and(eq(vmInterfaces.id, interfaceId), eq(vmInterfaces.companyId, caller.companyId)));
  if (!owner) throw notThere();
  const { vm } = await requireVmPermission(tx, caller, owner.vmId, 'vm.edit', {
    lock: true,
  }).catch((error: unknown) => {
    // A VM the caller cannot see hides its interfaces too.
    throw error instanceof HttpError && error.statusCode === 404 ? notThere() : error;
  });
  const [found] = await tx
    .select({ iface: vmInterfaces, network: networks })
    .from(vmInterfaces)
    .innerJoin(networks, eq(networks.id, vmInterfaces.networkId))
    .where(eq(vmInterfaces.id, interfaceId))
    .for('update', { of: vmInterfaces });
  // Removed in the meantime.
  if (!found) throw notThere();
  if (vm.status === 'Provisioning') throw conflict(vmMessages.stillProvisioning);
  if (found.iface.status !== 'Active') throw conflict(networkMessages.interfaceBusy);
  const [address] = await tx
    .select()
    .from(publicIps)
    .where(eq(publicIps.interfaceId, interfaceId))
    .for('update');
  return { ...found, vm, address };
}

export async function allocateInterfacePublicIp(
  db: Db,
  caller: Caller,
  interfaceId: number,
  now: Date,
  limits: CompanyLimits,
): Promise<string> {
  return db.transaction(async (tx) => {
    const { iface, network, vm, address } = await editableInterface(tx, caller, interfaceId);
    if (!network.snatEnabled) throw conflict(networkMessages.publicIpNeedsSnat);
    if (address) {
      throw conflict(
        address.status === 'Releasing'
          ? networkMessages.interfaceBusy
          : networkMessages.alreadyHasPublicIp,
      );
    }
    // A new attempt: the message of an earlier failure no longer applies.
    await tx
      .update(vmInterfaces)
      .set({ statusMessage: null, updatedAt: now })
      .where(eq(vmInterfaces.id, iface.id));
    const reserved = await reservePublicIp(
      tx,
      { regionId: vm.regionId, companyId: caller.companyId, limits },
      { interfaceId: iface.id },
      'Allocating',
      now,
    );
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      vmId: vm.id,
      kind: 'ip.allocate',
      payload: { interfaceId: iface.id, address: reserved },
      activity: {
        actor: await userActor(tx, caller.userId),
        action: 'ip.allocate',
        subject: vmSubject(vm),
        teamId: vm.teamId,
        networkId: network.id,
        detail: { address: reserved, network: network.name },
      },
      now,
    });
    return reserved;
  });
}

export async function releaseInterfacePublicIp(
  db: Db,
  caller: Caller,
  interfaceId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { iface, network, vm, address } = await editableInterface(tx, caller, interfaceId);
    if (!address) throw conflict(networkMessages.noPublicIp);
    if (address.status !== 'Active') throw conflict(networkMessages.interfaceBusy);
    await tx
      .update(publicIps)
      .set({ status: 'Releasing', updatedAt: now })
      .where(eq(publicIps.id, address.id));
    await tx
      .update(vmInterfaces)
      .set({ statusMessage: null, updatedAt: now })
      .where(eq(vmInterfaces.id, iface.id));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      vmId: vm.id,
      kind: 'ip.release',
      payload: { interfaceId: iface.id },
      activity: {
        actor: await userActor(tx, caller.userId),
        action: 'ip.release',
        subject: vmSubject(vm),
        teamId: vm.teamId,
        networkId: network.id,
        detail: { address: address.address, network: network.name },
      },
      now,
    });
  });
}
