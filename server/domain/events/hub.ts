import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { events } from '../../db/event-schema';

export type EventRow = typeof events.$inferSelect & { seq: number };

/** Read at a time when catching up; a longer backlog is read in several. */
export const EVENT_BATCH = 500;

export interface EventHub {
  /**
   * From now on, every event of the company committed after this call, in commit order, batch
   * by batch. Answers the function that ends the subscription.
   */
  subscribe(companyId: number, deliver: (batch: EventRow[]) => void): Promise<() => void>;
  /**
   * The company's last event handed to its subscribers (undefined while it has none): a
   * subscriber has been or will be handed every later one.
   */
  cursor(companyId: number): number | undefined;
  close(): Promise<void>;
}

interface Company {
  /** The last event read for the company's subscribers. */
  cursor: number;
  ready: Promise<void>;
  listeners: Set<(batch: EventRow[]) => void>;
  reading: boolean;
  again: boolean;
}

/**
 * One per process: hears of committed events through LISTEN (every process on the database
 * does), reads each company's new events once, however many of its streams are open here, and
 * hands them to them. After a lost LISTEN connection it looks again for every company.
 */
export async function createEventHub(
  db: Db,
  listen: Database['listen'],
  log: { warn(obj: object, msg: string): void },
): Promise<EventHub> {
  const companies = new Map<number, Company>();

  async function read(companyId: number, company: Company) {
    if (company.reading) {
      company.again = true;
      return;
    }
    company.reading = true;
    try {
      await company.ready;
      do {
        company.again = false;
        const rows = (await db
          .select()
          .from(events)
          .where(and(eq(events.companyId, companyId), gt(events.seq, company.cursor)))
          .orderBy(asc(events.seq))
          .limit(EVENT_BATCH)) as EventRow[];
        if (rows.length === 0) break;
        company.cursor = rows.at(-1)!.seq;
        for (const deliver of company.listeners) deliver(rows);
        if (rows.length === EVENT_BATCH) company.again = true;
      } while (company.again && companies.get(companyId) === company);
    } catch (error) {
      log.warn({ companyId, error: String(error) }, 'events could not be read; trying again');
      setTimeout(() => void read(companyId, company), 1_000).unref();
    } finally {
      company.reading = false;
    }
  }

  const stop = await listen(
    'launchpad_events',
    (payload) => {
      const companyId = Number(payload);
      const company = companies.get(companyId);
      if (company) void read(companyId, company);
    },
    () => {
      for (const [companyId, company] of companies) void read(companyId, company);
    },
  );

  return {
    async subscribe(companyId, deliver) {
      let company = companies.get(companyId);
      if (!company) {
        const created: Company = {
          cursor: 0,
          ready: db
            .select({ last: max(events.seq) })
            .from(events)
            .where(eq(events.companyId, companyId))
            .then(([row]) => {
              created.cursor = row?.last ?? 0;
            }),
          listeners: new Set(),
          reading: false,
          again: false,
        };
        // A failed first read leaves no company behind: the next subscriber tries again.
        created.ready.catch(() => {
          if (companies.get(companyId) === created) companies.delete(companyId);
        });
        company = created;
        companies.set(companyId, company);
      }
      company.listeners.add(deliver);
      const subscribed = company;
      await subscribed.ready;
      return () => {
        subscribed.listeners.delete(deliver);
        if (subscribed.listeners.size === 0 && companies.get(companyId) === subscribed) {
          companies.delete(companyId);
        }
      };
    },
    cursor: (companyId) => companies.get(companyId)?.cursor,
    close: stop,
  };
}
