import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCustomersWorld, type CustomersWorld } from './support/customers-world';

/**
 * Event ids follow commit order within a company only: across a reseller's customers, an id may
 * still be committing while a larger one is visible. A customers-scoped webhook must wait for it
 * rather than move its cursor past it. Two transactions at once need a real PostgreSQL server.
 */

describe.skipIf(!process.env.DATABASE_URL)(
  'a customers-scoped webhook and commits under way',
  () => {
    let w: CustomersWorld;
    let slow: pg.Client;
    const HOOK = '/rita/order';

    beforeAll(async () => {
      w = await startCustomersWorld();
      slow = new pg.Client({ connectionString: w.server.databaseUrl });
      await slow.connect();
      expect((await w.createHook('rita', HOOK, { scope: 'customers' })).status).toBe(200);
    }, 60_000);
    // A test that failed half-way leaves no transaction open for the next.
    afterEach(() => slow.query('ROLLBACK'));
    afterAll(async () => {
      await slow?.end();
      await w?.close();
    });

    /**
     * Opens a transaction that has taken its event's id and its company's commit lock, as a commit
     * does (the deferred trigger run now), and has not committed yet.
     */
    async function committing(companyId: number, name: string) {
      await slow.query('BEGIN');
      await slow.query(
        `INSERT INTO events (company_id, occurred_at, actor_type, actor_name, subject_type,
         subject_id, subject_name, action, outcome)
       VALUES ($1, now(), 'operator', 'Operator', 'team', 1, $2, 'team.create', 'succeeded')`,
        [companyId, name],
      );
      await slow.query('SET CONSTRAINTS ALL IMMEDIATE');
      const { rows } = await slow.query<{ seq: string }>(
        'SELECT seq FROM events WHERE subject_name = $1',
        [name],
      );
      return Number(rows[0]!.seq);
    }

    const names = () => w.delivered(HOOK).map((event) => event.subject.name);

    it('holds back a later id of another customer until the earlier one has committed', async () => {
      const early = await committing(w.customers.acme, 'early');
      await w.eventIn(w.customers.borealis, 'late');
      const [late] = (await w.eventsOf([w.customers.borealis])).slice(-1);
      expect(late!.id).toBeGreaterThan(early);

      await w.dispatcher.drain();
      expect(names()).toEqual([]);

      await slow.query('COMMIT');
      await w.dispatcher.drain();
      expect(names()).toEqual(['early', 'late']);
    });

    it('is not held back by another reseller’s customer committing', async () => {
      await committing(w.customers.bravo, 'theirs');
      await w.eventIn(w.customers.acme, 'ours');
      await w.dispatcher.drain();
      expect(names()).toEqual(['early', 'late', 'ours']);
      await slow.query('COMMIT');
      await w.dispatcher.drain();
      expect(names()).toEqual(['early', 'late', 'ours']);
    });
  },
);
