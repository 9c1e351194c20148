import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/production/support/server-process';
import { startCluster } from './postgres-cluster';
import { median } from './stats';

const root = path.resolve(import.meta.dirname, '../..');
/** Starts measured per case; the first `npm start` builds everything, so fewer of those. */
const RUNS = Number(process.env.START_RUNS ?? 5);
const BUILD_RUNS = Number(process.env.START_BUILD_RUNS ?? 3);
const FIGURES = path.join(
  root,
  'docs/benchmarks',
  `${new Date().toISOString().slice(0, 10)}-start.md`,
);
const TICKS_PER_SECOND = 100;

interface Start {
  /** From the spawn to the first answer: liveness's 200 (the port opens before the rest loads). */
  ms: number;
  /** From the spawn to readiness's 200: the start is over, every request is served. */
  readyMs: number;
  /** The process's CPU (user and system, every thread) when ready; undefined for `npm start`. */
  cpuSeconds?: number;
}

/** CPU seconds of a process so far, from /proc (utime and stime, in clock ticks). */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Spawns `command` in `cwd` and times it to its first answer and to readiness; then stops it. */
async function timeStart(command: string[], cwd: string, env: Record<string, string>) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const answers = async (check: string) =>
    (await fetch(`http://127.0.0.1:${port}/api/v1/healthCheck/${check}`).catch(() => null))
      ?.status === 200;
  let ms: number | undefined;
  let start: Start;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} failed:\n${stderr}`);
    if (ms === undefined && (await answers('api'))) ms = performance.now() - started;
    if (ms !== undefined && (await answers('ready'))) {
      const readyMs = performance.now() - started;
      const cpuSeconds = command[0] === 'npm' ? undefined : cpuSecondsOf(child.pid!);
      start = { ms, readyMs, cpuSeconds };
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return { ...start, built: stderr.includes('building') };
}

/** This repository's files (with the tree's changes) in a new folder, with its node_modules. */
function freshCheckout(): string {
  const checkout = mkdtempSync(path.join(tmpdir(), 'launchpad-bench-checkout-'));
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  for (const file of listed.stdout.split('\0')) {
    if (!file || !statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(checkout, file));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(checkout, 'node_modules'));
  return checkout;
}

const newDataDir = () => mkdtempSync(path.join(tmpdir(), 'launchpad-bench-start-'));

type Row = [what: string, starts: Start[]];

function row([what, starts]: Row) {
  const cpu = starts.map((s) => s.cpuSeconds).filter((s) => s !== undefined);
  const cpuText = cpu.length ? median(cpu).toFixed(2) : '';
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const all = starts.map((s) => `${seconds(s.ms)} / ${seconds(s.readyMs)}`).join(', ');
  const answered = seconds(median(starts.map((s) => s.ms)));
  const ready = seconds(median(starts.map((s) => s.readyMs)));
  return `| ${what} | ${answered} | ${ready} | ${cpuText} | ${all} |`;
}

/**
 * How soon the server answers after its start: spawn to the first 200 of
 * GET /api/v1/healthCheck/api (the port opens before the rest loads), and to the first 200 of
 * /healthCheck/ready (every request served), medians. The compiled server
 * (`node dist/server/main.js`, as an image runs it) on an empty PGlite folder and on one it made
 * before, and on a PostgreSQL of the bench's own; then `npm start` on a fresh checkout, whose first start builds, and a restart,
 * which must not. Written to `docs/benchmarks/`.
 */
async function main() {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const node = [process.execPath, '--enable-source-maps', 'dist/server/main.js'];
  const rows: Row[] = [];
  const load = () => loadavg()[0]!.toFixed(1);
  const loads = [load()];

  const firstPglite: Start[] = [];
  const restartPglite: Start[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const dataDir = newDataDir();
    firstPglite.push(await timeStart(node, root, { DATA_DIR: dataDir }));
    restartPglite.push(await timeStart(node, root, { DATA_DIR: dataDir }));
    rmSync(dataDir, { recursive: true, force: true });
  }
  rows.push(['`node dist/server/main.js`, PGlite, first start', firstPglite]);
  rows.push(['`node dist/server/main.js`, PGlite, restart', restartPglite]);
  loads.push(load());

  const cluster = startCluster(await freePort());
  try {
    const firstPg: Start[] = [];
    const restartPg: Start[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const name = `start_${i}`;
      cluster.tool('psql', ['-q', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`]);
      const env = {
        DATA_DIR: newDataDir(),
        DATABASE_URL: cluster.url.replace('/postgres?', `/${name}?`),
      };
      firstPg.push(await timeStart(node, root, env));
      restartPg.push(await timeStart(node, root, env));
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
    rows.push(['`node dist/server/main.js`, PostgreSQL, first start', firstPg]);
    rows.push(['`node dist/server/main.js`, PostgreSQL, restart', restartPg]);
  } finally {
    cluster.stop();
  }
  loads.push(load());

  const firstNpm: Start[] = [];
  const restartNpm: Start[] = [];
  for (let i = 0; i < BUILD_RUNS; i += 1) {
    const checkout = freshCheckout();
    const dataDir = newDataDir();
    const first = await timeStart(['npm', 'start'], checkout, { DATA_DIR: dataDir });
    const again = await timeStart(['npm', 'start'], checkout, { DATA_DIR: dataDir });
    if (!first.built || again.built) throw new Error('npm start built when it should not have');
    firstNpm.push(first);
    restartNpm.push(again);
    rmSync(checkout, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
  rows.push(['`npm start`, fresh checkout, PGlite: first (builds)', firstNpm]);
  rows.push(['`npm start`, same checkout: restart (no build)', restartNpm]);
  loads.push(load());

  const lines = [
    `# The server's start, ${new Date().toISOString().slice(0, 10)}`,
    '',
    'Written by `scripts/bench/start.ts` (`npm run bench`) on 2 cores: from the spawn of the',
    'command to the first answer (the 200 of `GET /api/v1/healthCheck/api`: the port opens',
    'before the database and the app) and to readiness (the 200 of `/healthCheck/ready`: every',
    'request served), in seconds, and the CPU seconds the server process had used when ready.',
    'A fresh checkout is this repository’s files with its `node_modules` (as after `npm ci`),',
    'without `dist/`.',
    `One-minute load average at the start of each part: ${loads.join(', ')}.`,
    '',
    '| what | first answer, median s | ready, median s | CPU s when ready (median) | each run: answer / ready, s |',
    '| --- | ---: | ---: | ---: | --- |',
    ...rows.map(row),
    '',
  ];
  writeFileSync(FIGURES, lines.join('\n'));
  console.warn(lines.join('\n'));
}

await main();
