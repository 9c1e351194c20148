import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { vmSizePeriods } from '../../db/vm-schema';

/** A VM starts to exist with a size: at creation and when a resize has taken effect. */
export async function openSizePeriod(
  tx: Tx,
  input: { companyId: number; vmId: number; configurationId: number; at: Date },
): Promise<void> {
  await tx.insert(vmSizePeriods).values({
    companyId: input.companyId,
    vmId: input.vmId,
    configurationId: input.configurationId,
    startedAt: input.at,
  });
}

/** The VM stops having its current size: resized or deleted. */
export async function closeSizePeriod(tx: Tx, vmId: number, at: Date): Promise<void> {
  await tx
    .update(vmSizePeriods)
    .set({ endedAt: at })
    .where(and(eq(vmSizePeriods.vmId, vmId), isNull(vmSizePeriods.endedAt)));
}
