import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { RateLimits } from '../../config';
import type { Db, Tx } from '../../db/client';
import { loginFailures } from '../../db/schema';

type Limits = Pick<RateLimits, 'loginFailures' | 'loginFailureWindowMs'>;

const windowStart = (now: Date, limits: Limits) =>
  new Date(now.getTime() - limits.loginFailureWindowMs);

/**
 * Too many failed logins for this address lately. Unknown addresses count too, so the answer
 * says nothing about whether an account exists.
 */
export async function isLoginThrottled(db: Db, email: string, now: Date, limits: Limits) {
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(
      and(eq(loginFailures.email, email), gt(loginFailures.createdAt, windowStart(now, limits))),
    );
  return (row?.n ?? 0) >= limits.loginFailures;
}

export async function recordLoginFailure(db: Db, email: string, now: Date, limits: Limits) {
  await db.transaction(async (tx) => {
    await tx
      .delete(loginFailures)
      .where(
        and(eq(loginFailures.email, email), lte(loginFailures.createdAt, windowStart(now, limits))),
      );
    await tx.insert(loginFailures).values({ email, createdAt: now });
  });
}

export async function clearLoginFailures(db: Db | Tx, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}
