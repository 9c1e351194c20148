import { eq, sql } from 'drizzle-orm';
import { systemClock } from '../../server/clock';
import { loadConfig } from '../../server/config';
import type { Db } from '../../server/db/client';
import { sessions } from '../../server/db/schema';
import { insertSession } from '../../server/domain/identity/sessions';
import { setUpProviders } from '../../server/providers/setup';
import { ROLE } from '../../src/api/contract/roles';
import {
  addTeamMember,
  createCompany,
  createTeam,
  createUser,
} from '../../test/server/support/seed';
import { insertVms } from '../../test/server/support/vm-fixtures';

export interface SeededCompany {
  companyId: number;
  teamId: number;
  /** Verified session tokens: an Admin of the company, and a Viewer of the team only. */
  adminToken: string;
  viewerToken: string;
}

const STATUSES = `array['Running','Stopped','Shutoff','Error','Provisioning','Starting','Stopping','Resizing']`;

/**
 * Two companies of `vmsEach` VMs (names `vm-<md5>`, every size and status, one VM in four without
 * a team), each with an Admin and a team Viewer signed in. The catalogue comes from the sim, as on
 * a fresh `npm start`; the database must be migrated.
 */
export async function seedTwoCompanies(db: Db, vmsEach: number): Promise<SeededCompany[]> {
  await setUpProviders({
    db,
    clock: systemClock,
    config: loadConfig({
      APP_SECRET: 'bench-secret-bench-secret-bench-secret',
      LOG_LEVEL: 'silent',
    }),
  });
  const seeded: SeededCompany[] = [];
  for (const n of [1, 2]) {
    const { company } = await createCompany(db);
    const team = await createTeam(db, { companyId: company.id, name: 'Bench' });
    // One VM through the fixture gives the catalogue ids; the rest are copied from it in SQL.
    const [first] = await insertVms(db, [{ companyId: company.id, teamId: team.id, name: 'seed' }]);
    await db.execute(
      sql.raw(`
      insert into virtual_machines (company_id, team_id, name, region_id, image_id,
        configuration_id, provider_id, status, username, password_secret, private_key_secret,
        public_key, allocate_public_ip, created_at, updated_at)
      select v.company_id, case when g % 4 = 0 then null else v.team_id end,
        'vm-' || md5(${n} || '-' || g), v.region_id, v.image_id, 1 + g % 6, v.provider_id,
        (${STATUSES})[1 + g % 8], v.username, v.password_secret, v.private_key_secret,
        v.public_key, true, now() - (g || ' minutes')::interval, now()
      from generate_series(2, ${vmsEach}) g, virtual_machines v where v.id = ${first!.id}`),
    );
    const admin = await createUser(db, {
      companyId: company.id,
      email: `admin-${n}@bench.example`,
      isAdmin: true,
    });
    const viewer = await createUser(db, {
      companyId: company.id,
      email: `viewer-${n}@bench.example`,
    });
    await addTeamMember(db, { teamId: team.id, userId: viewer.id, roleId: ROLE.viewer });
    seeded.push({
      companyId: company.id,
      teamId: team.id,
      adminToken: await verifiedSession(db, admin.id),
      viewerToken: await verifiedSession(db, viewer.id),
    });
  }
  // As autovacuum would leave tables in steady use (PGlite does the same work on analyze).
  await db.execute(sql`vacuum analyze`);
  return seeded;
}

/** A session as a correct one-time code leaves it (the sign-in itself is measured elsewhere). */
async function verifiedSession(db: Db, userId: number) {
  const now = new Date();
  return db.transaction(async (tx) => {
    const { sessionId, token } = await insertSession(tx, { userId, rememberMe: true, now });
    await tx.update(sessions).set({ verifiedAt: now }).where(eq(sessions.id, sessionId));
    return token;
  });
}
