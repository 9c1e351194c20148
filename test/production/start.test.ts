import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/server-process';

/**
 * The server as an operator runs it: the compiled `dist/server/main.js` under plain node (after
 * `npm run build`), and `npm start`, which builds only when the sources changed.
 */

const root = path.resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};

interface Started {
  url: string;
  /** The readiness check's answer asked as liveness first answered 200. */
  readinessWhenLive: { status: number; body: unknown };
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/**
 * Spawns `command` (in a process group of its own) and waits for it to be ready (the readiness
 * check's 200), noting what readiness said when liveness first answered.
 */
async function start(
  command: string[],
  cwd: string,
  env: Record<string, string> = {},
  // A data folder of the caller's, kept; by default a new one, removed at the end.
  keptDataDir?: string,
) {
  const port = await freePort();
  const dataDir = keptDataDir ?? mkdtempSync(path.join(tmpdir(), 'launchpad-start-'));
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: '',
      SMTP_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  const answer = async (check: string) => {
    const res = await fetch(`${url}/api/v1/healthCheck/${check}`).catch(() => undefined);
    return res && { status: res.status, body: (await res.json()) as unknown };
  };
  let readinessWhenLive: Started['readinessWhenLive'] | undefined;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${command.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    }
    if (!readinessWhenLive && (await answer('api'))?.status === 200) {
      readinessWhenLive = await answer('ready');
    }
    if (readinessWhenLive && (await answer('ready'))?.status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command.join(' ')} was not ready within 180 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    readinessWhenLive: readinessWhenLive!,
    stdout: () => stdout,
    stderr: () => stderr,
    stop,
  } satisfies Started;
}

const messages = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('the compiled server, run with plain node', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-start-'));
  let server: Started;
  beforeAll(async () => {
    server = await start([process.execPath, 'dist/server/main.js'], root, {}, dataDir);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the health check with the release of package.json', async () => {
    const res = await fetch(`${server.url}/api/v1/healthCheck/api`);
    expect(await res.json()).toEqual({
      data: { status: 'ok', version },
      message: 'API is healthy',
    });
  });

  it('answers liveness while it starts, and readiness 503 until it is ready', () => {
    expect(server.readinessWhenLive).toEqual({
      status: 503,
      body: {
        data: {
          status: 'unavailable',
          checks: {
            migrations: 'pending',
            database: 'unavailable',
            catalogue: 'pending',
            process: 'ok',
          },
        },
        message: 'Not ready: migrations pending, database unavailable, catalogue not synced',
      },
    });
  });

  it('says which release starts in its first log line, before the migrations', () => {
    const lines = messages(server.stdout());
    expect(lines[0]).toBe(`Launchpad ${version} starting`);
    expect(lines.indexOf('migrations applied')).toBeGreaterThan(0);
  });

  it("serves the built console, and not the server's own files", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const built = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    // The built page, with the base path the server writes in.
    expect(html).toContain(built.slice(built.indexOf('<meta charset')));
    for (const file of ['server/main.js', 'server/main.js.map', 'server/build-inputs.sha256']) {
      const res = await fetch(`${server.url}/${file}`);
      expect(res.headers.get('content-type'), file).toMatch(/^text\/html/);
      expect(await res.text(), file).not.toContain('healthCheck');
    }
  });

  it("starts an empty data folder from the build's template, kept on disk", async () => {
    // The database answers, and holds what a first start writes (the first Admin).
    const health = await fetch(`${server.url}/api/v1/healthCheck/database`);
    expect(health.status).toBe(200);
    expect(messages(server.stdout()).some((m) => m.startsWith('Created the first Admin'))).toBe(
      true,
    );
    await server.stop();
    const again = await start([process.execPath, 'dist/server/main.js'], root, {}, dataDir);
    await again.stop();
    expect(messages(again.stdout())).toContain('migrations applied');
    expect(messages(again.stdout()).some((m) => m.startsWith('Created the first Admin'))).toBe(
      false,
    );
  });

  it('names the TypeScript in stack traces with --enable-source-maps', () => {
    // The data folder under a file: the server fails at start, in server/config.ts, writing the
    // app secret it was not given.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: path.join(root, 'package.json', 'data'),
    };
    delete env.APP_SECRET;
    const failed = spawnSync(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
      cwd: root,
      env,
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr.toString()).toMatch(/at loadConfig \(.*server\/config\.ts:\d+:\d+\)/);
  });
});

describe('npm start on a fresh checkout', () => {
  let checkout: string;
  const mtimes = () =>
    ['dist/index.html', 'dist/server/main.js', 'dist/server/build-inputs.sha256'].map(
      (file) => statSync(path.join(checkout, file)).mtimeMs,
    );

  beforeAll(() => {
    // The repository's files as a clone has them (with this tree's changes), and its
    // node_modules as `npm ci` left them.
    checkout = mkdtempSync(path.join(tmpdir(), 'launchpad-checkout-'));
    const files = spawnSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
      .stdout.split('\0')
      .filter(
        (file) => file && statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile(),
      );
    expect(files).toContain('server/main.ts');
    for (const file of files) {
      mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(checkout, file));
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(checkout, 'node_modules'));
  });
  afterAll(() => rmSync(checkout, { recursive: true, force: true }));

  // Two builds of the console and the server: longer than the project's timeout allows on a busy machine.
  it(
    'builds at the first start, not at a restart, and again once a source changed',
    { timeout: 600_000 },
    async () => {
      const first = await start(['npm', 'start'], checkout);
      await first.stop();
      expect(first.stderr()).toContain('No build yet: building.');
      expect(messages(first.stdout())).toContain(`Launchpad ${version} starting`);
      const built = mtimes();

      const restart = await start(['npm', 'start'], checkout);
      const page = await fetch(`${restart.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"');
      await restart.stop();
      expect(restart.stderr()).not.toContain('building');
      expect(mtimes()).toEqual(built);

      appendFileSync(path.join(checkout, 'server/app.ts'), '\n// A change after the build.\n');
      const changed = await start(['npm', 'start'], checkout);
      await changed.stop();
      expect(changed.stderr()).toContain('The sources changed since the last build: building.');
      expect(mtimes()[1]).toBeGreaterThan(built[1]!);
    },
  );

  it('runs the build it has when there are no sources to build from', async () => {
    // An image's runtime: dist/ and the dependencies, no server/ nor src/.
    rmSync(path.join(checkout, 'server'), { recursive: true });
    rmSync(path.join(checkout, 'src'), { recursive: true });
    const built = mtimes();
    const server = await start(['npm', 'start'], checkout);
    await server.stop();
    expect(server.stderr()).not.toContain('building');
    expect(mtimes()).toEqual(built);
  });
});
