import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

/** What the benchmarks ask of every load: 50 connections for 8 seconds, as the issue measured. */
export const CONNECTIONS = 50;
export const SECONDS = 8;

export interface Load {
  label: string;
  rps: number;
  p99Ms: number;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A TypeScript entry point in a process of its own, so that the load generator does not share its CPU time. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const up = await fetch(readyUrl).then(
      () => true,
      () => false,
    );
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not answer ${readyUrl} within a minute`);
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Every answer must be a 200: a benchmark of errors would measure nothing. */
export async function load(
  label: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Load> {
  // A warm-up, so that the first connections, the prepared statements and the JIT do not weigh
  // on the figures.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 3 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${label}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { label, rps: result.requests.average, p99Ms: result.latency.p99 };
}
