import { eq } from 'drizzle-orm';
import {
  secondFactorMessages,
  type SecondFactorPolicy,
} from '../../../src/api/contract/second-factor';
import type { Db } from '../../db/client';
import { companies } from '../../db/schema';
import { conflict } from '../../http-error';
import { userActor } from '../events/actor';
import { recordEvent } from '../events/record';
import { requireAdmin, type Caller } from '../tenancy/access';
import { hasStrongSecondFactor } from './second-step';

export async function readSecondFactorPolicy(
  db: Db,
  companyId: number,
): Promise<SecondFactorPolicy> {
  const [row] = await db
    .select({ requireStrongSecondFactor: companies.requireStrongSecondFactor })
    .from(companies)
    .where(eq(companies.id, companyId));
  return { requireStrongSecondFactor: row?.requireStrongSecondFactor ?? false };
}

const onOff = (value: boolean) => (value ? 'On' : 'Off');

/**
 * An Admin requires (or stops requiring) an authenticator app or a passkey of every user of the
 * company. Users without one are held at enrolment from their next request. The Admin must have
 * one first, so that nobody switches the company to a rule they cannot follow themselves. A change
 * is `company.second-factor-policy` in the company's log.
 */
export async function saveSecondFactorPolicy(
  db: Db,
  who: Caller,
  policy: SecondFactorPolicy,
  now: Date,
): Promise<SecondFactorPolicy> {
  requireAdmin(who, secondFactorMessages.policyAdminsOnly);
  if (policy.requireStrongSecondFactor && !(await hasStrongSecondFactor(db, who.userId))) {
    throw conflict(secondFactorMessages.policyNeedsOwnFactor);
  }
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        name: companies.name,
        requireStrongSecondFactor: companies.requireStrongSecondFactor,
      })
      .from(companies)
      .where(eq(companies.id, who.companyId))
      .for('update');
    if (!before || before.requireStrongSecondFactor === policy.requireStrongSecondFactor) return;
    await tx
      .update(companies)
      .set({ requireStrongSecondFactor: policy.requireStrongSecondFactor, updatedAt: now })
      .where(eq(companies.id, who.companyId));
    await recordEvent(tx, {
      companyId: who.companyId,
      actor: await userActor(tx, who.userId),
      subject: { type: 'company', id: who.companyId, name: before.name },
      action: 'company.second-factor-policy',
      outcome: 'succeeded',
      detail: {
        from: onOff(before.requireStrongSecondFactor),
        to: onOff(policy.requireStrongSecondFactor),
      },
      at: now,
    });
  });
  return policy;
}
