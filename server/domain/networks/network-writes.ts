import { eq } from 'drizzle-orm';
import type { z } from '../../../src/api/contract/zod';
import {
  networkMessages,
  type createNetworkBody,
  type updateNetworkBody,
} from '../../../src/api/contract/networks';
import type { CompanyLimits } from '../../config';
import { regions } from '../../db/catalog-schema';
import type { Db, Tx } from '../../db/client';
import { networks, vmInterfaces } from '../../db/network-schema';
import { virtualMachines } from '../../db/vm-schema';
import { badRequest, conflict, notFound } from '../../http-error';
import { enqueueOperation } from '../../jobs/operations';
import { requireAdmin, type Caller } from '../tenancy/access';
import { lockNetwork } from './addresses';
import { userActor } from '../events/actor';
import { insertNetwork, networkSubject, storedAddressing } from './network-records';

/** Creating, editing and deleting networks: Admins only; the provider follows through operations. */

type NetworkInput = z.output<typeof updateNetworkBody>;

const addressingOf = (input: NetworkInput) => ({
  networkType: input.networkType,
  cidrBlock: input.cidrBlock,
  dhcpStartAddress: input.dhcpStartAddress,
  dhcpEndAddress: input.dhcpEndAddress,
  defaultRoute: input.defaultRoute,
  dnsServers: input.dnsServers ? input.dnsServers.split(',').map((s) => s.trim()) : [],
});

export async function createNetwork(
  db: Db,
  caller: Caller,
  input: z.output<typeof createNetworkBody>,
  now: Date,
  limits: CompanyLimits,
): Promise<number> {
  requireAdmin(caller, networkMessages.adminsOnly);
  const [region] = await db
    .select({ id: regions.id })
    .from(regions)
    .where(eq(regions.id, input.regionId));
  if (!region) throw badRequest(networkMessages.regionRequired, 'regionId');
  return db.transaction(async (tx) => {
    const network = await insertNetwork(tx, {
      companyId: caller.companyId,
      regionId: input.regionId,
      name: input.name,
      description: input.description,
      ...addressingOf(input),
      actor: await userActor(tx, caller.userId),
      now,
      limits,
    });
    return network.id;
  });
}

/** The network, locked; 404 when it is not the caller's, 409 while VMs are connected. */
async function lockEditableNetwork(tx: Tx, caller: Caller, networkId: number) {
  const network = await lockNetwork(tx, caller.companyId, networkId);
  if (!network) throw notFound(networkMessages.notFound);
  requireAdmin(caller, networkMessages.adminsOnly);
  const [attached] = await tx
    .select({ id: vmInterfaces.id })
    .from(vmInterfaces)
    .innerJoin(virtualMachines, eq(virtualMachines.id, vmInterfaces.vmId))
    .where(eq(vmInterfaces.networkId, networkId))
    .limit(1);
  if (attached) throw conflict(networkMessages.hasVms);
  return network;
}

export async function updateNetwork(
  db: Db,
  caller: Caller,
  networkId: number,
  input: NetworkInput,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const network = await lockEditableNetwork(tx, caller, networkId);
    if (input.networkType !== network.networkType) {
      throw badRequest(networkMessages.typeFixed, 'networkType');
    }
    await tx
      .update(networks)
      .set({
        name: input.name,
        description: input.description,
        ...storedAddressing(addressingOf(input)),
        updatedAt: now,
      })
      .where(eq(networks.id, networkId));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      networkId,
      kind: 'network.update',
      activity: {
        actor: await userActor(tx, caller.userId),
        action: 'network.edit',
        subject: networkSubject({ id: networkId, name: input.name }),
        networkId,
        detail: input.name === network.name ? {} : { from: network.name, to: input.name },
      },
      now,
    });
  });
}

/** The network leaves the list at once; its operation removes it from the provider. */
export async function deleteNetwork(db: Db, caller: Caller, networkId: number, now: Date) {
  await db.transaction(async (tx) => {
    const network = await lockEditableNetwork(tx, caller, networkId);
    await tx
      .update(networks)
      .set({ deletedAt: now, updatedAt: now })
      .where(eq(networks.id, networkId));
    await enqueueOperation(tx, {
      companyId: caller.companyId,
      networkId,
      kind: 'network.delete',
      activity: {
        actor: await userActor(tx, caller.userId),
        action: 'network.delete',
        subject: networkSubject(network),
        networkId,
      },
      now,
    });
  });
}
