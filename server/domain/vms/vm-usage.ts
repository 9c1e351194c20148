import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { vmRunPeriods, vmSizePeriods } from '../../db/vm-schema';

/**
 * The history usage for billing counts (docs/billing.md): when each VM existed in each size, and
 * when it ran. Written in the transaction of the change itself, at the same moment.
 */

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

/**
 * The VM's status enters Running. One period is open at most: a VM already counted as running
 * (the migration opened periods for the VMs running then) keeps the one it has.
 */
export async function openRunPeriod(
  tx: Tx,
  input: { companyId: number; vmId: number; at: Date },
): Promise<void> {
  await tx.execute(sql`
    insert into ${vmRunPeriods} (company_id, vm_id, started_at)
    select ${input.companyId}, ${input.vmId}, ${input.at.toISOString()}::timestamptz
    where not exists (
      select 1 from ${vmRunPeriods} where vm_id = ${input.vmId} and ended_at is null
    )`);
}

/** The VM's status leaves Running, or the VM is deleted. */
export async function closeRunPeriod(tx: Tx, vmId: number, at: Date): Promise<void> {
  await tx
    .update(vmRunPeriods)
    .set({ endedAt: at })
    .where(and(eq(vmRunPeriods.vmId, vmId), isNull(vmRunPeriods.endedAt)));
}
