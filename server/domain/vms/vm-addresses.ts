import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PrimaryIp } from '../../../src/api/contract/vms';
import type { Db } from '../../db/client';
import { publicIps, vmInterfaces } from '../../db/network-schema';

/**
 * The address a customer reaches each VM at: the public IP of its lowest-numbered interface that
 * has an active one, else the private address of its lowest-numbered interface that has one
 * (vmnic 1, the primary, unless it is on a layer 2 network). VMs with neither are left out.
 * One query for a page of VMs, read through the (vm, vmnic) index.
 */
export async function primaryIpsOf(
  db: Db,
  companyId: number,
  vmIds: readonly number[],
): Promise<Map<number, NonNullable<PrimaryIp>>> {
  if (vmIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([vmInterfaces.vmId], {
      vmId: vmInterfaces.vmId,
      publicIp: publicIps.address,
      privateIp: vmInterfaces.privateIp,
    })
    .from(vmInterfaces)
    .leftJoin(
      publicIps,
      and(eq(publicIps.interfaceId, vmInterfaces.id), eq(publicIps.status, 'Active')),
    )
    .where(
      and(
        eq(vmInterfaces.companyId, companyId),
        inArray(vmInterfaces.vmId, [...vmIds]),
        sql`coalesce(${publicIps.address}, ${vmInterfaces.privateIp}) is not null`,
      ),
    )
    .orderBy(asc(vmInterfaces.vmId), sql`${publicIps.address} is null`, asc(vmInterfaces.vmnic));
  return new Map(
    rows.map(({ vmId, publicIp, privateIp }) => [
      vmId,
      publicIp
        ? { address: publicIp, kind: 'public' as const }
        : { address: privateIp!, kind: 'private' as const },
    ]),
  );
}

/** Rows of a VM list with each VM's primary address (null when it has none). */
export async function withPrimaryIps<T extends { id: number }>(
  db: Db,
  companyId: number,
  rows: readonly T[],
): Promise<(T & { primaryIp: PrimaryIp })[]> {
  const ips = await primaryIpsOf(
    db,
    companyId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, primaryIp: ips.get(row.id) ?? null }));
}
