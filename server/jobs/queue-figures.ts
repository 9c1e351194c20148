import { and, count, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { OperationQueueFigures } from '../metrics/metrics';
import { operations } from './schema';

/**
 * The reconciler's queue as a scrape sees it, over every process sharing the database: the
 * operations not ended by status, and how long the oldest one due and held by no worker has
 * waited (work piling up when the workers cannot keep pace, or none runs). One read of the
 * partial index on `run_after` that holds only the open operations.
 */
export async function operationQueueFigures(db: Db, now: Date): Promise<OperationQueueFigures> {
  const waiting = and(
    lte(operations.runAfter, now),
    or(isNull(operations.lockedUntil), lt(operations.lockedUntil, now)),
  );
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${operations.status} = 'pending')`.mapWith(
        Number,
      ),
      all: count(),
      // Reckoned by the database, on the caller's clock: no timestamp text to parse here.
      lagSeconds:
        sql<number>`coalesce(extract(epoch from (${now.toISOString()}::timestamptz - min(${operations.runAfter}) filter (where ${waiting}))), 0)`.mapWith(
          Number,
        ),
    })
    .from(operations)
    .where(inArray(operations.status, ['pending', 'running']));
  const pending = row?.pending ?? 0;
  return {
    pending,
    running: (row?.all ?? 0) - pending,
    lagSeconds: Math.max(0, row?.lagSeconds ?? 0),
  };
}
