import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { hostRange, ipToNumber, numberToIp, parseCidr } from '../../../src/api/contract/ip';
import { networkMessages } from '../../../src/api/contract/networks';
import type { CompanyLimits } from '../../config';
import type { Tx } from '../../db/client';
import { networks, publicIps, vmInterfaces } from '../../db/network-schema';
import { regions } from '../../db/catalog-schema';
import { conflict } from '../../http-error';
import { requireRoom } from '../limits/room';
import { closePublicIpPeriods, openPublicIpPeriod } from './public-ip-periods';

/**
 * Address management: private addresses from a network's DHCP pool, MAC addresses, and public
 * addresses from the region's pool. The unique indexes of `network-schema.ts` are the last word;
 * the locks taken here make concurrent requests wait for each other instead of failing.
 */

export type NetworkRecord = typeof networks.$inferSelect;

/** A locally administered unicast MAC (02:…), random; the unique index catches the rare twin. */
export const newMacAddress = () =>
  ['02', ...[...randomBytes(5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');

/**
 * Locks a live network of the company: address choices on one network happen one at a time.
 * Another company's network is neither found nor locked.
 */
export async function lockNetwork(
  tx: Tx,
  companyId: number,
  networkId: number,
): Promise<NetworkRecord | undefined> {
  const [row] = await tx
    .select()
    .from(networks)
    .where(
      and(
        eq(networks.id, networkId),
        eq(networks.companyId, companyId),
        isNull(networks.deletedAt),
      ),
    )
    .for('update');
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

/**
 * Takes the lowest free address of the region's pool for an interface (NAT) or a network (SNAT),
 * within the operator's quota and the company's and its reseller's limits (`requireRoom`, whose
 * locks come before the region's). The region's row serialises the choices made in that region;
 * the unique index has the last word. The company holds it (and is billed for it) from `now`.
 */
export async function reservePublicIp(
  tx: Tx,
  owner: { regionId: number; companyId: number; limits: CompanyLimits },
  holder: { interfaceId: number } | { networkId: number },
  status: 'Allocating' | 'Active',
  now: Date,
): Promise<string> {
  await requireRoom(
    tx,
    { companyId: owner.companyId, regionId: owner.regionId, quotas: owner.limits },
    { publicIps: 1 },
  );
  const [region] = await tx
    .select({ pool: regions.publicIpPool })
    .from(regions)
    .where(eq(regions.id, owner.regionId))
    .for('no key update');
  const pool = region && parseCidr(region.pool);
  if (!pool) throw conflict(networkMessages.poolExhausted);
  const used = new Set(
    (
      await tx
        .select({ address: publicIps.address })
        .from(publicIps)
        .where(eq(publicIps.regionId, owner.regionId))
    ).map((row) => row.address),
  );
  const { first, last } = hostRange(pool);
  for (let n = first; n <= last; n += 1) {
    const address = numberToIp(n);
    if (used.has(address)) continue;
    await tx.insert(publicIps).values({
      regionId: owner.regionId,
      address,
      companyId: owner.companyId,
      ...holder,
      status,
    });
    const { companyId, regionId } = owner;
    await openPublicIpPeriod(tx, { companyId, regionId, address, holder, at: now });
    return address;
  }
  throw conflict(networkMessages.poolExhausted);
}

/** Puts addresses back in the pool: their company holds them no more from `now`. */
export async function freePublicIps(
  tx: Tx,
  holders: { interfaceIds?: number[]; networkId?: number },
  now: Date,
): Promise<void> {
  const freed: string[] = [];
  const returning = { address: publicIps.address };
  if (holders.interfaceIds && holders.interfaceIds.length > 0) {
    const rows = await tx
      .delete(publicIps)
      .where(inArray(publicIps.interfaceId, holders.interfaceIds))
      .returning(returning);
    freed.push(...rows.map((row) => row.address));
  }
  if (holders.networkId !== undefined) {
    const rows = await tx
      .delete(publicIps)
      .where(eq(publicIps.networkId, holders.networkId))
      .returning(returning);
    freed.push(...rows.map((row) => row.address));
  }
  await closePublicIpPeriods(tx, freed, now);
}

/** Removes a VM's interfaces, and their public addresses go back to the pool. */
export async function dropVmInterfaces(tx: Tx, vmId: number, now: Date): Promise<void> {
  const ids = (
    await tx.select({ id: vmInterfaces.id }).from(vmInterfaces).where(eq(vmInterfaces.vmId, vmId))
  ).map((row) => row.id);
  await freePublicIps(tx, { interfaceIds: ids }, now);
  await tx.delete(vmInterfaces).where(eq(vmInterfaces.vmId, vmId));
}
