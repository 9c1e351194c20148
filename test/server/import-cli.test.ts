import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importCommand } from '../../scripts/import-command';
import { connectPglite } from '../../server/db/client';
import * as schema from '../../server/schema';
import { companies, users } from '../../server/db/schema';
import { parseMail } from './support/mail';

/**
 * `npm run import` as an operator runs it, against an embedded database in a temporary folder:
 * once as its own process (its exit code, what it prints, and that it ends by itself), the other
 * runs in this process, through the same function with the same settings and streams.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (kind: string) => path.join(root, 'test/fixtures/imports', `${kind}.json`);

let dir: string;
let dataDir: string;

type Run = { code: number; stdout: string; stderr: string };

/** The command's settings: always the embedded database and the outbox, even on PostgreSQL. */
const settings = () => ({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  SMTP_URL: '',
  PUBLIC_URL: 'http://console.test/',
  LOG_LEVEL: 'warn',
});

/** The command as its own process. */
function spawnImport(...args: string[]) {
  return new Promise<Run>((resolve) => {
    // tsx as a loader of this node rather than through npx and tsx's own launcher: two node
    // processes fewer to start.
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/import.ts', ...args],
      { cwd: root, env: { ...process.env, ...settings() } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A stream that keeps what is written to it. */
function collected() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** The command in this process: a node and tsx fewer to start, and its modules already loaded. */
async function runImport(...args: string[]): Promise<Run> {
  const stdout = collected();
  const stderr = collected();
  const code = await importCommand(args, {
    env: { ...process.env, ...settings() },
    stdout: stdout.stream,
    stderr: stderr.stream,
    log: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const errorLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('#'));

const outbox = () =>
  readdirSync(path.join(dataDir, 'outbox'))
    .sort()
    .map((file) => parseMail(readFileSync(path.join(dataDir, 'outbox', file), 'utf8')));

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'launchpad-import-cli-'));
  dataDir = path.join(dir, 'data');
  // The embedded database as a first start leaves it: the project's migrated template is the
  // cluster's folder as a tar file, unpacked here (the command's own first start would spend ~10 s
  // creating the cluster and migrating it, and PGlite ~5 s writing the template through its file
  // system).
  const cluster = path.join(dataDir, 'pglite');
  mkdirSync(cluster, { recursive: true });
  execFileSync('tar', ['-xf', inject('pgliteTemplate'), '-C', cluster], { stdio: 'ignore' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run import', () => {
  it('imports the example files in order, printing each result and mailing the admins', async () => {
    const results = [];
    for (const kind of ['distributer', 'reseller', 'company']) {
      // The last as its own process: it mails the admins, and must wait for the e-mails to end.
      const run = await (kind === 'company' ? spawnImport : runImport)(kind, fixture(kind));
      expect(run.code, run.stderr).toBe(0);
      results.push(JSON.parse(run.stdout));
    }

    expect(results.map(({ created, updated }) => ({ created, updated }))).toEqual([
      { created: 1, updated: 0 },
      { created: 1, updated: 0 },
      { created: 2, updated: 0 },
    ]);
    expect(results[2].items.map((item: { externalId: string }) => item.externalId)).toEqual([
      'cust-acme',
      'cust-globex',
    ]);
    // The command waited for the e-mails before it ended.
    const mails = outbox();
    expect(mails.map((mail) => mail.to).sort()).toEqual([
      'admin@globex.example',
      'it@acme.example',
      'staff@skyline.example',
    ]);
    for (const mail of mails) {
      expect(mail.text).toMatch(/http:\/\/console\.test\/confirmNewUser\?token=\S+&id=\d+/);
    }
  }, 120_000);

  it('prints every bad item, exits 1 and writes nothing', async () => {
    const file = path.join(dir, 'bad-companies.json');
    // A bare array is accepted as well as { items }.
    writeFileSync(
      file,
      JSON.stringify([
        {
          externalId: 'cli-good',
          resellerExternalId: 'res-skyline',
          name: 'Good',
          admin: { email: 'good@cli.test', firstName: 'G', lastName: 'G' },
        },
        {
          externalId: 'cli-bad',
          resellerExternalId: 'res-skyline',
          name: 'Bad',
          admin: { email: 'nope', firstName: 'B', lastName: 'B' },
        },
        {
          externalId: 'cli-orphan',
          resellerExternalId: 'res-nobody',
          name: 'Orphan',
          admin: { email: 'orphan@cli.test', firstName: 'O', lastName: 'O' },
        },
      ]),
    );

    const run = await runImport('company', file);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorLines(run.stderr)).toEqual([
      '#1 admin.email: Entered value does not match email format',
      '#2 resellerExternalId: Unknown reseller',
    ]);

    const database = connectPglite(schema, path.join(dataDir, 'pglite'));
    try {
      const rows = await database.db.select({ externalId: companies.externalId }).from(companies);
      expect(rows.map((row) => row.externalId).sort()).toEqual([
        'cust-acme',
        'cust-globex',
        'reseller:res-skyline',
      ]);
      expect(await database.db.select({ email: users.email }).from(users)).toHaveLength(3);
    } finally {
      await database.close();
    }
    expect(outbox()).toHaveLength(3);
  }, 120_000);

  it('shows the usage and exits 2 for a bad kind, a missing file or a file that is not JSON', async () => {
    const notJson = path.join(dir, 'not.json');
    writeFileSync(notJson, '{"items": [');

    const runs = await Promise.all([
      runImport('customer', fixture('company')),
      runImport('company', path.join(dir, 'missing.json')),
      runImport('company', notJson),
    ]);

    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Usage: npm run import -- <distributer|reseller|company>');
      expect(run.stderr).toContain('the server must NOT be running at the same time');
    }
    expect(runs[0]!.stderr).toContain('Unknown kind "customer"');
    expect(runs[1]!.stderr).toContain('Cannot read');
    expect(runs[2]!.stderr).toContain('is not valid JSON');
  }, 120_000);
});
