import { sql } from 'drizzle-orm';
import { startTestServer } from '../../test/server/harness';
import { createCompany, createTeam, createUser } from '../../test/server/seed';
import { bearer, signIn } from '../../test/server/sign-in';
import { insertVms } from '../../test/server/vm-fixtures';
import { medianMs, report } from './stats';

const VMS = 100_000;

/**
 * The Virtual Machines list at 100,000 VMs in one company (and as many in another), through the
 * real app (app.inject) on PGlite, or on PostgreSQL when DATABASE_URL is set: search, each sort,
 * a deep page, and the team scope of a non-Admin.
 */
async function main() {
  const server = await startTestServer();
  try {
    const db = server.database.db;
    const { company } = await createCompany(db);
    const { company: other } = await createCompany(db);
    const team = await createTeam(db, { companyId: company.id, name: 'Bench' });
    // One VM through the fixture gives the catalogue ids; the rest are copied from it in SQL.
    await insertVms(db, [{ companyId: company.id, teamId: team.id, name: 'seed' }]);
    const statuses = `(array['Running','Stopped','Shutoff','Error','Provisioning','Starting','Stopping','Resizing'])`;
    for (const companyId of [company.id, other.id]) {
      await db.execute(
        sql.raw(`
        insert into virtual_machines (company_id, team_id, name, region_id, image_id,
          configuration_id, provider_id, status, username, password_secret, private_key_secret,
          public_key, allocate_public_ip, created_at, updated_at)
        select ${companyId}, case when g % 4 = 0 then null else ${companyId === company.id ? team.id : 'null'}::integer end,
          'vm-' || md5(g::text), v.region_id, v.image_id, 1 + g % 6, v.provider_id,
          ${statuses}[1 + g % 8], v.username, v.password_secret, v.private_key_secret,
          v.public_key, true, now() - (g || ' minutes')::interval, now()
        from generate_series(1, ${VMS}) g, (select * from virtual_machines limit 1) v`),
      );
    }
    // As autovacuum would leave a table in steady use (PGlite does the same work on analyze).
    await db.execute(sql`vacuum analyze virtual_machines`);
    const admin = await createUser(db, {
      companyId: company.id,
      email: 'bench@example.com',
      isAdmin: true,
    });
    const member = await createUser(db, { companyId: company.id, email: 'member@example.com' });
    await db.execute(
      sql`insert into team_members (team_id, user_id, role_id) values (${team.id}, ${member.id}, 4)`,
    );
    const tokens = {
      admin: (await signIn(server, admin.email)).token,
      member: (await signIn(server, member.email)).token,
    };
    const list =
      (query: string, who: keyof typeof tokens = 'admin') =>
      () =>
        server.app
          .inject({
            method: 'GET',
            url: `/api/v1/virtualMachines/list?${query}`,
            headers: bearer(tokens[who]),
          })
          .then((res) => {
            if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
          });

    console.warn(
      `${VMS.toLocaleString('en')} VMs in the company (${server.databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
    );
    report([
      ['VM list, page 1, by name', await medianMs(list('page=1&rowsPerPage=10'))],
      ['VM list, page 1, by status', await medianMs(list('sortColumn=status'))],
      [
        'VM list, page 1, by size desc',
        await medianMs(list('sortColumn=configuration&sortDescending=true')),
      ],
      [
        'VM list, page 1, newest first',
        await medianMs(list('sortColumn=createdAt&sortDescending=true')),
      ],
      ['VM list, page 5,000, by name', await medianMs(list('page=5000'))],
      ['VM list, search "abc1"', await medianMs(list('search=abc1'))],
      ['VM list, search with no match', await medianMs(list('search=nothing-like-this'))],
      ['VM list, team scope (Viewer)', await medianMs(list('page=1', 'member'))],
      ['VM list, one team, by name', await medianMs(list(`teamId=${team.id}`))],
    ]);
  } finally {
    await server.close();
  }
}

await main();
