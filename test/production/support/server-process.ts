import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codeIn, parseMail, type Mail } from '../../server/support/mail';

/** This repository's root. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The compiled server `npm run build` emits: what an operator runs. */
export const builtEntry = path.join('dist', 'server', 'main.js');

export interface ServerOptions {
  /** Settings on top of the defaults below (PGlite under `dataDir`, the mail outbox, `warn` logs). */
  env?: Record<string, string>;
  /** The data folder; a new temporary one when left out. It is never removed here. */
  dataDir?: string;
  /** The checkout to run (another release's worktree); this repository by default. */
  root?: string;
  /**
   * `built`: `node dist/server/main.js`, as in production (it must have been built);
   * `source`: the TypeScript through tsx, for a checkout that has no compiled server. Unset:
   * `PRODUCTION_SERVER_ENTRY`, else `built`.
   */
  entry?: 'built' | 'source';
  /**
   * How long to wait for it to be ready. A first start on PGlite makes its cluster: 50 s on this
   * 2-core machine under other load.
   */
  startSeconds?: number;
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `url` + BASE_PATH + `api/v1` */
  api: string;
  dataDir: string;
  pid: number;
  /** What the server printed on stdout so far (JSON log lines). */
  output(): string;
  /** The messages the outbox holds for the address, newest first. */
  mailsTo(address: string): Mail[];
  /**
   * The sign-in code of the first e-mail to the address beyond the `before` newest ones it had
   * (a restored outbox already holds old codes), waited for.
   */
  signInCode(address: string, before: number): Promise<string>;
  /** SIGTERM, then waits for the process to end; its exit code (null: ended by a signal). */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash; waits for the process to end. */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const answers = (url: string) =>
  fetch(url).then(
    (res) => res.status,
    () => 0,
  );

/**
 * The readiness check (migrations applied, database reachable, catalogue synced); a release
 * older than it (0.1.0) is ready once its database check answers, as it migrates before it listens.
 */
async function ready(api: string) {
  const status = await answers(`${api}/healthCheck/ready`);
  return (
    status === 200 || (status === 404 && (await answers(`${api}/healthCheck/database`)) === 200)
  );
}

/**
 * Starts a Launchpad server as a process of its own on a free port of 127.0.0.1 and resolves once
 * it is ready.
 */
export async function startServerProcess(options: ServerOptions = {}): Promise<ServerProcess> {
  const root = options.root ?? repoRoot;
  const entry =
    options.entry ?? (process.env.PRODUCTION_SERVER_ENTRY === 'source' ? 'source' : 'built');
  if (entry === 'built' && !existsSync(path.join(root, builtEntry))) {
    throw new Error(`${path.join(root, builtEntry)} is missing: run \`npm run build\` first`);
  }
  const args = entry === 'built' ? [builtEntry] : ['--import', 'tsx', 'server/main.ts'];
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'launchpad-production-'));
  const env = options.env ?? {};
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: '',
      SMTP_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: string) => {
    output += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', collect);
  child.stderr?.setEncoding('utf8').on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

  const url = `http://127.0.0.1:${port}`;
  const api = `${url}${env.BASE_PATH ?? '/'}api/v1`;
  const deadline = Date.now() + (options.startSeconds ?? 180) * 1000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    }
    if (await ready(api)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(
        `the server was not healthy within ${options.startSeconds ?? 180} s:\n${output}`,
      );
    }
    // Twice a second: the health checks are rate-limited per address (60 or 300 a minute).
    await sleep(500);
  }

  const outbox = path.join(dataDir, 'outbox');
  const mailsTo = (address: string) =>
    existsSync(outbox)
      ? readdirSync(outbox)
          .sort()
          .reverse()
          .map((file) => parseMail(readFileSync(path.join(outbox, file), 'utf8')))
          .filter((mail) => mail.to === address)
      : [];
  return {
    url,
    api,
    dataDir,
    pid: child.pid!,
    output: () => output,
    mailsTo,
    async signInCode(address, before) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const mails = mailsTo(address);
        const mail = mails
          .slice(0, mails.length - before)
          .find((m) => /sign-in code/.test(m.subject));
        if (mail) return codeIn(mail);
        await sleep(100);
      }
      throw new Error(`no sign-in code was written to the outbox for ${address}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
