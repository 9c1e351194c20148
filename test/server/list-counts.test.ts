import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCounts } from '../../server/db/list-counts-schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { startNetworkWorld, type NetworkWorld } from './support/network-world';
import { createTeam, createUser } from './support/seed';
import { insertVms } from './support/vm-fixtures';

let w: NetworkWorld;
beforeAll(async () => {
  w = await startNetworkWorld();
}, 60_000);
afterAll(() => w.close());

/** Every count as the rows themselves say it, in the shape of `list_counts`. */
async function countedFromRows() {
  const result = await w.server.database.db.execute(sql`
    select list, owner_id, n from (
      select 'vms' as list, company_id as owner_id, count(*)::int as n from virtual_machines
        where deleted_at is null group by 2
      union all select 'team_vms', team_id, count(*)::int from virtual_machines
        where deleted_at is null and team_id is not null group by 2
      union all select 'unassigned_vms', company_id, count(*)::int from virtual_machines
        where deleted_at is null and team_id is null group by 2
      union all select 'networks', company_id, count(*)::int from networks
        where deleted_at is null group by 2
      union all select 'users', company_id, count(*)::int from users group by 2
      union all select 'teams', company_id, count(*)::int from teams group by 2
      union all select 'team_members', team_id, count(*)::int from team_members group by 2
      union all select 'user_teams', user_id, count(*)::int from team_members group by 2
    ) c order by 1, 2`);
  return (result as unknown as { rows: { list: string; owner_id: number; n: number }[] }).rows.map(
    (r) => `${r.list}:${r.owner_id}=${Number(r.n)}`,
  );
}

async function kept() {
  const rows = await w.server.database.db
    .select()
    .from(listCounts)
    .orderBy(listCounts.list, listCounts.ownerId);
  return rows.filter((r) => r.n !== 0).map((r) => `${r.list}:${r.ownerId}=${r.n}`);
}

const versionOfVms = async (companyId: number) => {
  const [row] = await w.server.database.db
    .select({ version: listCounts.version })
    .from(listCounts)
    .where(and(eq(listCounts.list, 'vms'), eq(listCounts.ownerId, companyId)));
  return row?.version ?? 0;
};

describe('list counts', () => {
  it('follow every change to the rows, in the transaction that makes it', async () => {
    const db = w.server.database.db;
    // Through the API: VMs ordered, one deleted, networks created and one deleted.
    const [kept1, gone] = await w.createVms('admin', { name: 'web', numberOfInstances: 2 });
    await w.server.finishOperations();
    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${gone}`)).status).toBe(200);
    const net = await w.createNetwork(w.standard());
    await w.createNetwork(w.custom());
    expect((await w.call('admin', 'DELETE', `/networks/delete/${net}`)).status).toBe(200);
    await w.server.finishOperations();
    // A bulk insert, in a team and without one, and in the other company.
    const beta = await createTeam(db, { companyId: w.companyId, name: 'Beta' });
    await insertVms(
      db,
      Array.from({ length: 30 }, (_, i) => ({
        companyId: i % 3 === 0 ? w.other.companyId : w.companyId,
        teamId: i % 3 === 0 ? w.other.teamId : i % 3 === 1 ? beta.id : null,
        name: `bulk-${i}`,
      })),
    );
    // A VM moved to another team, and a team deleted (its VMs lose their team).
    await db.update(virtualMachines).set({ teamId: beta.id }).where(eq(virtualMachines.id, kept1!));
    const member = await createUser(db, { companyId: w.companyId, email: 'counted@a.test' });
    await w.call('admin', 'POST', '/teams/addUser', {
      teamId: beta.id,
      userId: member.id,
      roleId: 4,
    });
    expect((await w.call('admin', 'DELETE', '/teams/delete', { teamId: beta.id })).status).toBe(
      200,
    );
    // A user deleted with their memberships.
    expect((await w.call('admin', 'DELETE', `/users/delete/${w.userIds.viewer}`)).status).toBe(200);

    expect(await kept()).toEqual(await countedFromRows());
  });

  it('move the version of the VM list when its order changes, and only then', async () => {
    const db = w.server.database.db;
    const [vm] = await insertVms(db, [{ companyId: w.companyId, teamId: null, name: 'v' }]);
    const before = await versionOfVms(w.companyId);
    await db
      .update(virtualMachines)
      .set({ providerRef: 'engine-ref' })
      .where(eq(virtualMachines.id, vm!.id));
    expect(await versionOfVms(w.companyId)).toBe(before);
    await db
      .update(virtualMachines)
      .set({ status: 'Stopped' })
      .where(eq(virtualMachines.id, vm!.id));
    expect(await versionOfVms(w.companyId)).toBe(before + 1);
    await db.update(virtualMachines).set({ name: 'w' }).where(eq(virtualMachines.id, vm!.id));
    expect(await versionOfVms(w.companyId)).toBe(before + 2);
    expect(await kept()).toEqual(await countedFromRows());
  });

  it('are not changed by a transaction that rolls back', async () => {
    const db = w.server.database.db;
    const before = await kept();
    await expect(
      db.transaction(async (tx) => {
        await insertVms(tx as never, [{ companyId: w.companyId, teamId: null, name: 'rolled' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await kept()).toEqual(before);
  });
});
