import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { pooledDatabase } from './support/pglite-pool';
import { createCompany, createTeam, createUser } from './support/seed';
import { rowsOf, tableDigests } from './support/table-digests';

// The test files of a worker share embedded clusters (support/pglite-pool.ts): a file must find
// one exactly as the migrated template left it, whatever the file before it wrote.

/** Every table's rows and every sequence's position. */
async function stateOf(database: Database) {
  const digests = await (await tableDigests(database, new Set()))();
  const sequences = await rowsOf<{ name: string; last: string | null }>(
    database,
    sql`select sequencename as name, last_value::text as last from pg_sequences
      where schemaname = 'public' order by 1`,
  );
  return { digests, sequences };
}

describe.skipIf(process.env.DATABASE_URL)('the embedded clusters the test files share', () => {
  it('hands a used cluster to the next file with the template’s rows and sequences', async () => {
    const first = await pooledDatabase();
    const template = await stateOf(first.database);
    expect(Object.keys(template.digests).length).toBeGreaterThan(20);

    const { company } = await createCompany(first.database.db);
    await createTeam(first.database.db, { companyId: company.id, name: 'Left behind' });
    const user = await createUser(first.database.db, { companyId: company.id });
    const written = await stateOf(first.database);
    expect(written).not.toEqual(template);
    await first.release();

    const second = await pooledDatabase();
    try {
      // The same cluster, emptied: not a new one started from the template.
      expect(second.cluster).toBe(first.cluster);
      expect(await stateOf(second.database)).toEqual(template);
      // New rows get the ids the first file's rows had.
      const again = await createCompany(second.database.db);
      const again2 = await createUser(second.database.db, { companyId: again.company.id });
      expect([again.company.id, again2.id]).toEqual([company.id, user.id]);
    } finally {
      await second.release();
    }
  });

  it('does not hand on a cluster whose schema a file changed', async () => {
    const first = await pooledDatabase();
    await first.database.db.execute(
      sql.raw('create function left_behind() returns int language sql as $$ select 1 $$'),
    );
    await first.release();
    expect(first.cluster.closed).toBe(true);

    const second = await pooledDatabase();
    expect(second.cluster).not.toBe(first.cluster);
    await second.release();
  });
});
