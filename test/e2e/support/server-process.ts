import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseMail, type Mail } from '../../server/support/mail';

const root = path.resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The production server as `npm start` runs it, on a free port and a throw-away data folder. */
export interface RunningServer {
  url: string;
  dataDir: string;
  /** What the server printed on stdout so far (JSON log lines). */
  output(): string;
  /** The messages sent to the address, newest first. */
  mailsTo(address: string): Mail[];
  /** Ends the process as a crash would (SIGKILL), keeping its data folder for a restart. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** With `dataDir`, a restart on the data a previous (killed) server left behind. */
export async function startServer(
  env: Record<string, string>,
  options: { dataDir?: string } = {},
): Promise<RunningServer> {
  if (!existsSync(path.join(root, 'dist', 'index.html'))) {
    const build = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'launchpad-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      SMTP_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const health = `${url}${env.BASE_PATH ?? '/'}api/v1/healthCheck/database`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(health);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not become healthy within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const outbox = path.join(dataDir, 'outbox');
  return {
    url,
    dataDir,
    output: () => stdout,
    mailsTo(address) {
      if (!existsSync(outbox)) return [];
      return readdirSync(outbox)
        .sort()
        .reverse()
        .map((f) => parseMail(readFileSync(path.join(outbox, f), 'utf8')))
        .filter((mail) => mail.to === address);
    },
    async kill() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
