import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SharingPool } from '../../server/db/sharing-pool';

/**
 * The pool's statements outside a transaction share a few connections in pipeline mode. Needs
 * DATABASE_URL (CI's PostgreSQL run).
 */

const url = process.env.DATABASE_URL;
const APP = `sharing-pool-test-${process.pid}`;
let pools: SharingPool[] = [];

function sharingPool(connections: number) {
  const connection = { connectionString: url, application_name: APP };
  const pool = new SharingPool(
    { ...connection, max: 8 },
    { connections, open: () => new pg.Client({ ...connection, pipeline: true }) },
  );
  pools.push(pool);
  return pool;
}

const backendOf = async (pool: pg.Pool) =>
  (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  pools = [];
});

describe.skipIf(!url)('a pool whose statements share connections', () => {
  it('answers each of many statements sent at once with its own rows, on the shared connections only', async () => {
    const pool = sharingPool(2);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.query<{ doubled: number; pid: number }>(
          'select $1::int * 2 as doubled, pg_backend_pid() as pid',
          [i],
        ),
      ),
    );
    expect(answers.map((answer) => answer.rows[0]!.doubled)).toEqual(
      Array.from({ length: 200 }, (_, i) => i * 2),
    );
    expect(new Set(answers.map((answer) => answer.rows[0]!.pid)).size).toBeLessThanOrEqual(2);
  });

  it('fails a failing statement alone, not those sent with it', async () => {
    const pool = sharingPool(1);
    const settled = await Promise.allSettled([
      pool.query('select 1 as one'),
      pool.query('select 1 / 0'),
      pool.query('select $1::text as echoed', ['still here']),
    ]);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('division by zero');
    expect((settled[2] as PromiseFulfilledResult<pg.QueryResult>).value.rows).toEqual([
      { echoed: 'still here' },
    ]);
  });

  it('gives a transaction a connection of its own', async () => {
    const pool = sharingPool(1);
    const shared = await backendOf(pool);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('create temporary table seen (n int) on commit drop');
      await client.query('insert into seen values (1)');
      const own = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
      expect(own.pid).not.toBe(shared);
      // The transaction's table is not there for a statement outside it.
      await expect(pool.query('select n from seen')).rejects.toThrow('"seen" does not exist');
      await client.query('commit');
    } finally {
      client.release();
    }
  });

  it('fails what a lost connection had been sent, and answers the next statement on a new one', async () => {
    const pool = sharingPool(1);
    const lost = await backendOf(pool);
    const sleeping = pool.query('select pg_sleep(30)');
    const behind = pool.query('select 2 as two');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [lost]);
    } finally {
      await admin.end();
    }
    await expect(sleeping).rejects.toThrow();
    await expect(behind).rejects.toThrow();
    const next = await backendOf(pool);
    expect(next).not.toBe(lost);
  });

  it('refuses statements once ended', async () => {
    const pool = sharingPool(1);
    await backendOf(pool);
    await pool.end();
    pools = [];
    await expect(pool.query('select 1')).rejects.toThrow('Cannot use a pool after calling end');
  });
});
