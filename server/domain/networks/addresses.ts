import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ipToNumber, numberToIp } from '../../../src/api/contract/ip';
import { networkMessages } from '../../../src/api/contract/networks';
import type { Tx } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { conflict } from '../../http-error';

/**
 * Address management: private addresses from a network's DHCP pool, MAC addresses, and public
 * addresses from the region's pool. The unique indexes of `network-schema.ts` are the last word;
 * the locks taken here make concurrent requests wait for each other instead of failing.
 */

export type NetworkRecord = typeof networks.$inferSelect;

/** A locally administered unicast MAC (02:…), random; the unique index catches the rare twin. */
export const newMacAddress = () =>
  ['02', ...[...randomBytes(5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');

/** Locks the network row: address choices on one network happen one at a time. */
export async function lockNetwork(tx: Tx, networkId: number): Promise<NetworkRecord | undefined> {
  const [row] = await tx.select().from(networks).where(eq(networks.id, networkId)).for('update');
  return row;
}

/**
 * The lowest free address of the network's DHCP pool (null on a network without one). The caller
 * holds the network's lock (`lockNetwork`) until its transaction ends.
 */
export async function allocatePrivateIp(tx: Tx, network: NetworkRecord): Promise<string | null> {
  if (!network.dhcpServerEnabled || !network.dhcpStartAddress || !network.dhcpEndAddress) {
    return null;
  }
  const used = new Set(
    (
      await tx
        .select({ ip: vmInterfaces.privateIp })
        .from(vmInterfaces)
        .where(eq(vmInterfaces.networkId, network.id))
    ).map((row) => row.ip),
  );
  const start = ipToNumber(network.dhcpStartAddress)!;
  const end = ipToNumber(network.dhcpEndAddress)!;
  for (let n = start; n <= end; n += 1) {
    const address = numberToIp(n);
    if (!used.has(address)) return address;
  }
  throw conflict('No private address is left on this network');
}

/** Takes a free address of the region's pool for an interface (NAT) or a network (SNAT). */
export async function reservePublicIp(
  tx: Tx,
  regionId: number,
  holder: { interfaceId: number } | { networkId: number },
  status: 'Allocating' | 'Active',
): Promise<string> {
  const [free] = await tx
    .select({ id: publicIps.id, address: publicIps.address })
    .from(publicIps)
    .where(
      and(
        eq(publicIps.regionId, regionId),
        isNull(publicIps.interfaceId),
        isNull(publicIps.networkId),
        isNull(publicIps.status),
      ),
    )
    .orderBy(asc(publicIps.id))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!free) throw conflict(networkMessages.poolExhausted);
  await tx
    .update(publicIps)
    .set({ ...holder, status, updatedAt: sql`now()` })
    .where(eq(publicIps.id, free.id));
  return free.address;
}

/** Puts addresses back in the pool. */
export async function freePublicIps(
  tx: Tx,
  holders: { interfaceIds?: number[]; networkId?: number },
): Promise<void> {
  const free = { interfaceId: null, networkId: null, status: null, updatedAt: sql`now()` };
  if (holders.interfaceIds && holders.interfaceIds.length > 0) {
    await tx
      .update(publicIps)
      .set(free)
      .where(inArray(publicIps.interfaceId, holders.interfaceIds));
  }
  if (holders.networkId !== undefined) {
    await tx.update(publicIps).set(free).where(eq(publicIps.networkId, holders.networkId));
  }
}

/** Removes a VM's interfaces, and their public addresses go back to the pool. */
export async function dropVmInterfaces(tx: Tx, vmId: number): Promise<void> {
  const ids = (
    await tx.select({ id: vmInterfaces.id }).from(vmInterfaces).where(eq(vmInterfaces.vmId, vmId))
  ).map((row) => row.id);
  await freePublicIps(tx, { interfaceIds: ids });
  await tx.delete(vmInterfaces).where(eq(vmInterfaces.vmId, vmId));
}
