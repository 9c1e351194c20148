import { and, asc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import { ALL_EVENTS } from '../../../src/api/contract/webhooks';
import type { Db } from '../../db/client';
import { events } from '../../db/event-schema';
import { companies } from '../../db/schema';
import { webhookSubscriptions } from '../../db/webhook-schema';
import type { EventRow } from '../events/hub';

/**
 * A subscription of scope `customers` (a reseller's staff's): the events of every company of the
 * reseller but its staff company, read through the companies' `reseller_id` at each step, so a
 * company created or suspended later is covered as it is. One cursor over all of them, the
 * events' ids.
 *
 * Cost: the worker walks the events after the cursor in id order (`events_seq_idx`), each one's
 * company by its key, at most `CUSTOMERS_WALK` of them a time, whoever's they are; when none of
 * those is the reseller's customers', the cursor moves past them. So a look costs the same for
 * a reseller with ten customers or ten thousand, and one whose customers are quiet while others
 * are busy is stepped once every `CUSTOMERS_WALK` events of theirs. (Probing each customer's
 * `events_company_idx` instead would cost one probe per customer at every look; a walk without a
 * bound, every event since the cursor.)
 *
 * Ids are given in commit order per company only (migration 0009: under that company's lock), so
 * across companies a smaller id may still be committing while a larger one is visible. Events are
 * therefore read only up to a horizon below which every id of the reseller's customers is
 * committed or gone (`customersHorizon`), else one committed late would fall behind the cursor.
 */

const s = webhookSubscriptions;

/** Events looked at past the cursor at a time, at most (see above). */
export const CUSTOMERS_WALK = 200;

/** Migration 0009's `events_commit` trigger takes `pg_advisory_xact_lock(this, company_id)`. */
const EVENTS_COMMIT_LOCK = 1702260340;

/** The reseller whose staff company holds the subscription (a correlated subquery on `s`). */
const resellerOfSubscription = sql`(select staff.reseller_id from ${companies} staff where staff.id = ${s.companyId})`;

/**
 * For the delivery worker's claim: whether an event may wait after the subscription's cursor,
 * of its own company; or, scope `customers`, whether one of the next `CUSTOMERS_WALK` events is a
 * customer's, or there are that many, so that the cursor should move past them. Each company is
 * read by its key from the events walked (a scalar subquery: a join may be planned as a scan of
 * all the companies).
 */
export const eventsAfterCursor: SQL = sql`case when ${s.scope} = 'customers'
  then exists (
      select 1 from (
        select e.company_id from ${events} e where e.seq > ${s.lastEventId}
        order by e.seq limit ${CUSTOMERS_WALK}
      ) next
      where (
        select c.reseller_id = ${resellerOfSubscription} and not c.is_reseller_staff
        from ${companies} c where c.id = next.company_id))
    or exists (
      select 1 from ${events} e where e.seq > ${s.lastEventId}
      order by e.seq offset ${CUSTOMERS_WALK - 1} limit 1)
  else exists (
    select 1 from ${events} e where e.company_id = ${s.companyId} and e.seq > ${s.lastEventId})
  end`;

/** The reseller's customers: its companies, less its staff company. */
const customerOf = (resellerId: number) =>
  and(eq(companies.resellerId, resellerId), eq(companies.isResellerStaff, false))!;

/**
 * An id at or below which every event of the reseller's customers is committed (or rolled back),
 * or undefined while one of them is committing. Three statements, in this order: the newest id
 * given (a committing transaction takes its company's lock before its id); then that no customer's
 * lock is held by anyone (each id given before is committed or gone now); then the reader reads
 * up to it, with a snapshot that sees them all.
 */
export async function customersHorizon(db: Db, resellerId: number): Promise<number | undefined> {
  const [given] = await db
    .select({
      last: sql<number>`case when is_called then last_value else 0 end`.mapWith(Number),
    })
    .from(sql`events_commit_seq`);
  const committing = await db
    .select({ id: companies.id })
    .from(sql`pg_locks l`)
    .innerJoin(companies, sql`${companies.id} = l.objid::bigint`)
    .where(
      and(
        sql`l.locktype = 'advisory' and l.classid = ${EVENTS_COMMIT_LOCK} and l.objsubid = 2`,
        sql`l.granted and l.pid is distinct from pg_backend_pid()`,
        sql`l.database = (select oid from pg_database where datname = current_database())`,
        customerOf(resellerId),
      ),
    )
    .limit(1);
  return committing.length > 0 ? undefined : (given?.last ?? 0);
}

type Subscription = typeof webhookSubscriptions.$inferSelect;

/**
 * The first event of the reseller's customers after the cursor that the subscription wants, of the
 * next `CUSTOMERS_WALK` up to the horizon; or, when none of those is wanted, the last of them, to
 * move the cursor past them all; `committing` while a customer's commit is under way (its
 * notification wakes the worker again); undefined when there is nothing after the cursor.
 */
export async function nextCustomerEvent(
  db: Db,
  sub: Subscription,
): Promise<{ event: EventRow } | { skipTo: number } | { committing: true } | undefined> {
  const [staff] = await db
    .select({ resellerId: companies.resellerId })
    .from(companies)
    .where(eq(companies.id, sub.companyId));
  if (!staff) return undefined;
  const horizon = await customersHorizon(db, staff.resellerId);
  if (horizon === undefined) return { committing: true };
  if (horizon <= sub.lastEventId) return undefined;
  const walked = await db
    .select({
      seq: events.seq,
      action: events.action,
      ofCustomer: sql<boolean>`${customerOf(staff.resellerId)}`,
    })
    .from(events)
    .innerJoin(companies, eq(companies.id, events.companyId))
    .where(and(gt(events.seq, sub.lastEventId), lte(events.seq, horizon)))
    .orderBy(asc(events.seq))
    .limit(CUSTOMERS_WALK);
  const all = sub.events.includes(ALL_EVENTS);
  const wanted = walked.find((row) => row.ofCustomer && (all || sub.events.includes(row.action)));
  if (wanted) {
    const [event] = await db.select().from(events).where(eq(events.seq, wanted.seq!));
    return { event: event as EventRow };
  }
  const last = walked.length === CUSTOMERS_WALK ? walked.at(-1)?.seq : undefined;
  return { skipTo: last ?? horizon };
}
