import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /** Through the cluster's unix socket, as a server on the same machine would connect. */
  url: string;
  port: number;
  /** Runs a PostgreSQL tool (pgbench, psql) as the cluster's owner; answers its stdout. */
  tool(name: string, args: string[]): string;
  stop(): void;
}

/**
 * A throwaway PostgreSQL cluster of its own for a benchmark: initdb in a temporary folder,
 * 127.0.0.1 only, stopped and removed by `stop()`. As root, it runs as the `postgres` user.
 */
export function startCluster(port: number): Cluster {
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-bench-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, bin), ...args]]
      : [path.join(BIN, bin), args];
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  run('initdb', ['-D', dataDir, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const settings = [
    `listen_addresses=127.0.0.1`,
    `port=${port}`,
    `unix_socket_directories=${dir}`,
    'max_connections=200',
    'shared_buffers=512MB',
    // A scratch database: losing it in a crash costs nothing, and seeding goes faster.
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
  ];
  run('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    settings.map((s) => `-c ${s}`).join(' '),
    'start',
  ]);
  return {
    url: `postgres://bench@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    port,
    tool: (name, args) => run(name, ['-h', dir, '-p', String(port), '-U', 'bench', ...args]),
    stop() {
      const stop = asRoot
        ? spawnSync('runuser', [
            '-u',
            'postgres',
            '--',
            path.join(BIN, 'pg_ctl'),
            '-D',
            dataDir,
            '-m',
            'immediate',
            'stop',
          ])
        : spawnSync(path.join(BIN, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      if (stop.status !== 0) console.warn(`pg_ctl stop: ${stop.stderr}`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
