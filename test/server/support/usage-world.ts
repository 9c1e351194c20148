import { eq } from 'drizzle-orm';
import { companies } from '../../../server/db/schema';
import { testClock } from './harness';
import { createUser, staffCompanyOf } from './seed';
import { bearer, signIn } from './sign-in';
import { startVmWorld } from './vm-world';

/**
 * The VM world's company as a reseller's customer, for usage for billing, on a clock the tests
 * move to the moments they choose: the reseller (A) has a staff company with a staff user and a
 * second customer with nothing to bill; the world's other company is a customer of reseller B,
 * whose staff has a user too. The customer's name needs quoting in CSV.
 */

export const CUSTOMER_NAME = 'Umbrella, "Cloud" Ltd';
export const IDLE_NAME = 'Aardvark Idle';
export const staffEmails = { staff: 'rita@usage-a.test', staffB: 'bob@usage-b.test' } as const;
type Staff = keyof typeof staffEmails;

export async function startUsageWorld(start: string) {
  const clock = testClock(new Date(start));
  const w = await startVmWorld({ clock });
  const db = w.server.database.db;

  await db.update(companies).set({ name: CUSTOMER_NAME }).where(eq(companies.id, w.companyId));
  const a = await staffCompanyOf(db, w.companyId, 'usage');
  const b = await staffCompanyOf(db, w.other.companyId, 'usage');
  const [idle] = await db
    .insert(companies)
    .values({ externalId: 'customer:idle', resellerId: a.resellerId, name: IDLE_NAME })
    .returning({ id: companies.id });
  await createUser(db, {
    companyId: a.staffCompanyId,
    email: staffEmails.staff,
    isAdmin: true,
    isReseller: true,
  });
  await createUser(db, {
    companyId: b.staffCompanyId,
    email: staffEmails.staffB,
    isAdmin: true,
    isReseller: true,
  });
  const tokens = {} as Record<Staff, string>;
  for (const who of Object.keys(staffEmails) as Staff[]) {
    // Remembered: they outlast the weeks the tests move the clock through.
    tokens[who] = (await signIn(w.server, staffEmails[who], { rememberMe: true })).token;
  }

  /** One call as a reseller's staff user (or with an API token's secret): the whole answer. */
  const asStaff = (
    who: Staff | { secret: string },
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ) =>
    w.server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(typeof who === 'string' ? tokens[who] : who.secret),
      ...(payload ? { payload } : {}),
    });

  return {
    ...w,
    clock,
    resellers: { a, b },
    idleCompanyId: idle!.id,
    asStaff,
    /** Moves the clock forward to the moment (never back). */
    moveTo(moment: string) {
      const ms = new Date(moment).getTime() - clock.now().getTime();
      if (ms < 0)
        throw new Error(`The clock is already past ${moment}: ${clock.now().toISOString()}`);
      clock.advance(ms);
    },
  };
}

export type UsageWorld = Awaited<ReturnType<typeof startUsageWorld>>;
