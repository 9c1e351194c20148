import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VmRow } from '../../src/api/contract/vms';
import { virtualMachines } from '../../server/db/vm-schema';
import { vmStatuses } from '../../src/api/contract/vms';
import { createTeam } from './support/seed';
import { insertVms } from './support/vm-fixtures';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * Deep pages of a long list start from cached anchors: these tests hold every page of every sort
 * to what plain OFFSET paging answers, before and after the list changes under the cache.
 */
const VMS = 1_300;
let w: VmWorld;
let betaId: number;
beforeAll(async () => {
  w = await startVmWorld();
  const db = w.server.database.db;
  betaId = (await createTeam(db, { companyId: w.companyId, name: 'Beta' })).id;
  // Repeated names and one creation moment: most sort keys tie, and the id must break the ties.
  const rows = Array.from({ length: VMS }, (_, i) => ({
    companyId: w.companyId,
    teamId: i % 3 === 0 ? null : i % 3 === 1 ? w.alphaId : betaId,
    name: `${i % 2 ? 'Web' : 'db'}-${i % 97}`,
    status: vmStatuses[i % vmStatuses.length],
  }));
  await insertVms(db, rows);
  await insertVms(db, [{ companyId: w.other.companyId, teamId: w.other.teamId, name: 'db-1' }]);
  await db.execute(sql`update virtual_machines set configuration_id = 1 + id % 6`);
}, 60_000);
afterAll(() => w.close());

const sortSql = {
  name: 'name_key',
  status: 'status',
  configuration: 'configuration_id',
  createdAt: 'created_at',
} as const;
type SortColumn = keyof typeof sortSql;

/** The ids of a page as plain OFFSET paging over the same rows answers them. */
async function expectedIds(
  sort: SortColumn,
  descending: boolean,
  page: number,
  teams?: number[],
): Promise<number[]> {
  const dir = sql.raw(descending ? 'desc' : 'asc');
  const rows = await w.server.database.db
    .select({ id: virtualMachines.id })
    .from(virtualMachines)
    .where(
      and(
        eq(virtualMachines.companyId, w.companyId),
        sql`${virtualMachines.deletedAt} is null`,
        teams ? inArray(virtualMachines.teamId, teams) : undefined,
      ),
    )
    .orderBy(sql`${sql.raw(sortSql[sort])} ${dir}`, sql`${virtualMachines.id} ${dir}`)
    .limit(10)
    .offset((page - 1) * 10);
  return rows.map((r) => r.id);
}

async function pageOf(who: Who, query: string) {
  const res = await w.call(who, 'GET', `/virtualMachines/list?${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: VmRow[]; totalPages: number } }).data;
}

const deepPages = [1, 26, 27, 51, 100, 129, 130, 131];

describe('deep pages of the VM list', () => {
  it('answer every sort and direction exactly as OFFSET paging does', async () => {
    for (const sort of Object.keys(sortSql) as SortColumn[]) {
      for (const descending of [false, true]) {
        for (const page of deepPages) {
          const query = `page=${page}&sortColumn=${sort}&sortDescending=${descending}`;
          const got = await pageOf('admin', query);
          expect(
            got.data.map((r) => r.id),
            query,
          ).toEqual(await expectedIds(sort, descending, page));
          expect(got.totalPages).toBe(130);
        }
      }
    }
  });

  it('stay exact after the list changes under the cached anchors', async () => {
    const db = w.server.database.db;
    // Warm the cache, then rename, delete, add and restatus rows before the anchors.
    await pageOf('admin', 'page=100');
    await pageOf('admin', 'page=100&sortColumn=status');
    const firstIds = await expectedIds('name', false, 3);
    await db
      .update(virtualMachines)
      .set({ name: 'zz-renamed' })
      .where(eq(virtualMachines.id, firstIds[0]!));
    await db
      .update(virtualMachines)
      .set({ deletedAt: new Date() })
      .where(eq(virtualMachines.id, firstIds[1]!));
    await insertVms(db, [{ companyId: w.companyId, teamId: null, name: 'aaa-new' }]);
    await db
      .update(virtualMachines)
      .set({ status: 'Running' })
      .where(inArray(virtualMachines.id, firstIds.slice(2, 6)));
    for (const page of deepPages) {
      expect((await pageOf('admin', `page=${page}`)).data.map((r) => r.id)).toEqual(
        await expectedIds('name', false, page),
      );
      expect(
        (await pageOf('admin', `page=${page}&sortColumn=status`)).data.map((r) => r.id),
      ).toEqual(await expectedIds('status', false, page));
    }
  });

  it('of a team member hold the rows of their teams only', async () => {
    for (const page of [1, 26, 40, 44]) {
      const got = await pageOf('viewer', `page=${page}`);
      expect(got.data.map((r) => r.id)).toEqual(
        await expectedIds('name', false, page, [w.alphaId]),
      );
      expect(got.totalPages).toBe(44);
    }
    const team = await pageOf('admin', `teamId=${betaId}&page=30&sortColumn=createdAt`);
    expect(team.data.map((r) => r.id)).toEqual(await expectedIds('createdAt', false, 30, [betaId]));
  });

  it('past the last page answer no rows and the true page count', async () => {
    const got = await pageOf('admin', 'page=5000');
    expect(got.data).toEqual([]);
    expect(got.totalPages).toBe(130);
  });

  it('of a search count the matches, and page through them', async () => {
    const all = await pageOf('admin', 'search=web-1&rowsPerPage=100');
    const matches = all.data.filter((r) => r.name.toLowerCase().includes('web-1'));
    expect(matches.length).toBe(all.data.length);
    const second = await pageOf('admin', 'search=web-1&rowsPerPage=10&page=2');
    expect(second.data.map((r) => r.id)).toEqual(all.data.slice(10, 20).map((r) => r.id));
    expect(second.totalPages).toBe(Math.ceil(all.data.length / 10));
  });
});
