import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createDatabase,
  dropDatabase,
  pgBin,
  pgliteFacts,
  postgresFacts,
} from './support/database';
import { expectSameViews, observe } from './support/observe';
import {
  startServerProcess,
  type ServerOptions,
  type ServerProcess,
} from './support/server-process';
import { buildVm, populate, worldEnv, type World } from './support/world';

/**
 * Issue 36, point 5: a populated installation backed up exactly as docs/operations/backup.md
 * says, wiped, restored, and started again, with everything there and working.
 */

const OPERATOR_TOKEN = 'backup-test-operator-token-0123456789';

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')}: ${result.status}\n${result.stderr}`);
  }
  return result.stdout;
}

/** The restored installation still works: a new VM is built, and its password is readable. */
async function expectUsable(server: ServerProcess, world: World) {
  const vm = await buildVm(server, world.admins[1]!, 'after-restore');
  expect(vm.status).toBe('Running');
  expect(vm.password.length).toBeGreaterThanOrEqual(12);
}

/** Two server starts, one on a new PGlite cluster, and VMs built: minutes on a loaded machine. */
const TEST_SECONDS = 600;

describe('backups and restores of a populated installation', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });
  const started = async (options: ServerOptions) => {
    const server = await startServerProcess(options);
    cleanup.push(() => server.kill());
    return server;
  };

  it(
    'PGlite: DATA_DIR archived with the server stopped, wiped, unpacked, started again',
    async () => {
      // /srv/launchpad/data in the document.
      const home = mkdtempSync(path.join(tmpdir(), 'launchpad-backup-'));
      cleanup.push(async () => rmSync(home, { recursive: true, force: true }));
      const dataDir = path.join(home, 'data');
      mkdirSync(dataDir);
      // No APP_SECRET: the server generates DATA_DIR/app-secret, which the archive must carry.
      const options = { dataDir, env: worldEnv(OPERATOR_TOKEN) };

      const first = await started(options);
      const world = await populate(first, OPERATOR_TOKEN);
      const seen = await observe(first, world);
      expect(await first.stop()).toBe(0);
      const facts = await pgliteFacts(dataDir);

      const archive = path.join(home, 'launchpad-data.tar.gz');
      run('tar', ['-C', home, '-czf', archive, 'data']);
      rmSync(dataDir, { recursive: true, force: true });
      expect(existsSync(dataDir)).toBe(false);
      run('tar', ['-C', home, '-xzf', archive]);

      const restoredFacts = await pgliteFacts(dataDir);
      const second = await started(options);
      const restoredSeen = await observe(second, world);
      expect(restoredFacts).toEqual(facts);
      expectSameViews(seen, restoredSeen);
      await expectUsable(second, world);
      expect(await second.stop()).toBe(0);
    },
    TEST_SECONDS * 1000,
  );

  const adminUrl = process.env.PRODUCTION_DATABASE_URL;
  it.runIf(adminUrl)(
    'PostgreSQL: pg_dump while it runs, the database dropped and made again, pg_restore',
    async () => {
      const { name, url } = await createDatabase(adminUrl!, 'launchpad_backup');
      cleanup.push(() => dropDatabase(adminUrl!, name));
      const home = mkdtempSync(path.join(tmpdir(), 'launchpad-backup-'));
      cleanup.push(async () => rmSync(home, { recursive: true, force: true }));
      const options = {
        dataDir: path.join(home, 'data'),
        env: {
          ...worldEnv(OPERATOR_TOKEN),
          DATABASE_URL: url,
          APP_SECRET: 'backup-test-app-secret-kept-with-the-dumps',
        },
      };

      const first = await started(options);
      const world = await populate(first, OPERATOR_TOKEN);
      const seen = await observe(first, world);
      const dump = path.join(home, 'launchpad.dump');
      run(pgBin('pg_dump'), ['--format=custom', `--file=${dump}`, url]);
      expect(await first.stop()).toBe(0);
      const facts = await postgresFacts(url);

      // Wiped as the document says: the database dropped, an empty one owned by the role made.
      run(pgBin('dropdb'), ['--force', `--maintenance-db=${adminUrl}`, name]);
      run(pgBin('createdb'), [
        `--maintenance-db=${adminUrl}`,
        `--owner=${decodeURIComponent(new URL(url).username)}`,
        name,
      ]);
      expect(Object.keys(await postgresFacts(url))).toEqual([]);
      run(pgBin('pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${url}`, dump]);

      const restoredFacts = await postgresFacts(url);
      const second = await started(options);
      const restoredSeen = await observe(second, world);
      expect(restoredFacts).toEqual(facts);
      expectSameViews(seen, restoredSeen);
      await expectUsable(second, world);
      expect(await second.stop()).toBe(0);
    },
    TEST_SECONDS * 1000,
  );
});
