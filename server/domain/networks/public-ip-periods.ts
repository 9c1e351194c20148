import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { publicIpPeriods, vmInterfaces } from '../../db/network-schema';

/**
 * When each public address was held (docs/billing.md): a period opens where a `public_ips` row is
 * inserted (allocation) and closes where it is deleted (release), in the same transaction.
 */

export async function openPublicIpPeriod(
  tx: Tx,
  input: {
    companyId: number;
    regionId: number;
    address: string;
    holder: { interfaceId: number } | { networkId: number };
    at: Date;
  },
): Promise<void> {
  const { holder } = input;
  await tx.insert(publicIpPeriods).values({
    companyId: input.companyId,
    regionId: input.regionId,
    address: input.address,
    // The interface's VM: what the address served, kept after the interface is gone.
    vmId:
      'interfaceId' in holder
        ? sql`(${tx
            .select({ vmId: vmInterfaces.vmId })
            .from(vmInterfaces)
            .where(eq(vmInterfaces.id, holder.interfaceId))})`
        : null,
    networkId: 'networkId' in holder ? holder.networkId : null,
    startedAt: input.at,
  });
}

export async function closePublicIpPeriods(tx: Tx, addresses: string[], at: Date): Promise<void> {
  if (addresses.length === 0) return;
  await tx
    .update(publicIpPeriods)
    .set({ endedAt: at })
    .where(and(inArray(publicIpPeriods.address, addresses), isNull(publicIpPeriods.endedAt)));
}
