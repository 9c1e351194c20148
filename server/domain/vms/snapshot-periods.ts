import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { snapshotPeriods } from '../../db/self-service-schema';

/**
 * When each snapshot was held on its engine, and its size (docs/billing.md): a period opens when
 * the take succeeded (the snapshot available, its size known) and closes when its delete
 * finished, its own or its VM's, in the transaction that records it, at the same moment.
 */

/**
 * The snapshot became available. One period is open at most: a snapshot already counted (the
 * migration opened periods for those held then) keeps the one it has.
 */
export async function openSnapshotPeriod(
  tx: Tx,
  input: { companyId: number; vmId: number; snapshotId: number; sizeBytes: number; at: Date },
): Promise<void> {
  await tx.execute(sql`
    insert into ${snapshotPeriods} (company_id, vm_id, snapshot_id, size_bytes, started_at)
    select ${input.companyId}, ${input.vmId}, ${input.snapshotId}, ${input.sizeBytes},
      ${input.at.toISOString()}::timestamptz
    where not exists (
      select 1 from ${snapshotPeriods} where snapshot_id = ${input.snapshotId} and ended_at is null
    )`);
}

/** The snapshots' delete finished on their engine: their own, or their VM's. */
export async function closeSnapshotPeriods(tx: Tx, snapshotIds: number[], at: Date): Promise<void> {
  if (snapshotIds.length === 0) return;
  await tx
    .update(snapshotPeriods)
    .set({ endedAt: at })
    .where(and(inArray(snapshotPeriods.snapshotId, snapshotIds), isNull(snapshotPeriods.endedAt)));
}
