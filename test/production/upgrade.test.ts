import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  dropDatabase,
  pgliteFacts,
  postgresFacts,
  type TableFacts,
} from './support/database';
import { expectSameViews, observe, type Observation } from './support/observe';
import { repoRoot, startServerProcess, type ServerOptions } from './support/server-process';
import { loadIntoPglite, loadIntoPostgres, readDump } from './support/sql-dump';
import { buildVm, fastSims, type World } from './support/world';

/**
 * Issue 36, point 6: the database the previous release made (test/production/fixtures, made by
 * scripts/fixtures/previous-release.ts) is migrated by this release when it starts, with nothing
 * lost. A table whose rows this release's migrations or catalogue change on purpose is named here
 * with the reason; so far there is none.
 */

const fixtures = path.join(import.meta.dirname, 'fixtures');
const manifest = JSON.parse(readFileSync(path.join(fixtures, 'previous-release.json'), 'utf8')) as {
  release: string;
  commit: string;
  appSecret: string;
  world: World;
  tables: Record<string, number>;
  observation: Observation;
};
const dump = readDump(path.join(fixtures, 'previous-release.sql.gz'));
const MIGRATIONS = 'drizzle.__drizzle_migrations';
const migrations = (
  JSON.parse(
    readFileSync(path.join(repoRoot, 'server/db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: unknown[] }
).entries.length;

/** Two server starts, one on a new PGlite cluster, and VMs built: minutes on a loaded machine. */
const TEST_SECONDS = 600;

describe(`an upgrade from the previous release (${manifest.release}, ${manifest.commit.slice(0, 7)})`, () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  /**
   * The first start migrates (and is stopped, so that PGlite's folder can be read); every table
   * of the fixture then holds as many rows as before. The next start answers each account's
   * sign-in, each Admin's lists and VM passwords as the previous release did, and builds a VM.
   */
  async function upgradeAndCheck(options: ServerOptions, facts: () => Promise<TableFacts>) {
    const migrating = await startServerProcess(options);
    cleanup.push(() => migrating.kill());
    expect(await migrating.stop()).toBe(0);

    const after = await facts();
    expect(after[MIGRATIONS]?.rows, 'every migration of this release recorded').toBe(migrations);
    const rows = (tables: string[], count: (table: string) => number | undefined) =>
      Object.fromEntries(tables.filter((t) => t !== MIGRATIONS).map((t) => [t, count(t)]));
    const kept = Object.keys(manifest.tables);
    expect(rows(kept, (t) => after[t]?.rows)).toEqual(rows(kept, (t) => manifest.tables[t]));

    const server = await startServerProcess(options);
    cleanup.push(() => server.kill());
    expectSameViews(manifest.observation, await observe(server, manifest.world));
    const vm = await buildVm(server, manifest.world.admins[1]!, 'after-upgrade');
    expect(vm.status).toBe('Running');
    expect(vm.password.length).toBeGreaterThanOrEqual(12);
    expect(await server.stop()).toBe(0);
  }

  it(
    'PGlite: the fixture loaded into a data folder, then this release started on it',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-upgrade-'));
      cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await loadIntoPglite(dataDir, dump);
      await upgradeAndCheck({ dataDir, env: { ...fastSims, APP_SECRET: manifest.appSecret } }, () =>
        pgliteFacts(dataDir),
      );
    },
    TEST_SECONDS * 1000,
  );

  const adminUrl = process.env.PRODUCTION_DATABASE_URL;
  it.runIf(adminUrl)(
    'PostgreSQL: the fixture loaded with psql, then this release started on it',
    async () => {
      const { name, url } = await createDatabase(adminUrl!, 'launchpad_upgrade');
      cleanup.push(() => dropDatabase(adminUrl!, name));
      loadIntoPostgres(url, dump);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-upgrade-'));
      cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await upgradeAndCheck(
        { dataDir, env: { ...fastSims, DATABASE_URL: url, APP_SECRET: manifest.appSecret } },
        () => postgresFacts(url),
      );
    },
    TEST_SECONDS * 1000,
  );
});
