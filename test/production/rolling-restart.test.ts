import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { serverSentEvents } from '../../cli/src/event-stream';
import type { ActivityEvent } from '../../src/api/contract/activity';
import { eventually } from './support/api-client';
import { createDatabase, dropDatabase } from './support/database';
import { startLoadBalancer, type LoadBalancer } from './support/load-balancer';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { smallUbuntuOrder } from './support/world';

/**
 * A rolling restart as an operator does one: two processes on one PostgreSQL behind a load
 * balancer that follows their readiness checks, a steady load of signed-in reads and writes, and
 * each process in turn sent SIGTERM and started again. No request may fail, an operation the
 * first process had under way must be finished by the other without waiting for its lease to
 * run out, and a live event stream through the balancer must miss no event.
 */

const adminUrl = process.env.PRODUCTION_DATABASE_URL;
const ADMIN = { email: 'rolling@launchpad.example', password: 'Rolling!Restart-Passw0rd' };
const OPERATOR_TOKEN = randomBytes(24).toString('hex');
/** How long after the restarts the load goes on, on the processes started again. */
const AFTER_MS = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  what: string;
  status: number;
}

/** Signs in on one process (its outbox holds the code); the session is good on every process. */
async function sessionToken(server: ServerProcess) {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${server.api}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const before = server.mailsTo(ADMIN.email).length;
  const login = await post('/auth/login', ADMIN);
  expect(login.status).toBe(200);
  const token = login.headers.get('authorization')!.replace(/^Bearer /, '');
  const code = await server.signInCode(ADMIN.email, before);
  expect((await post('/auth/mfa', { code }, token)).status).toBe(200);
  return token;
}

/** Calls of the signed-in Admin to one base (the balancer, or one process): status and body. */
const caller =
  (token: string) =>
  async <T>(base: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, data: (text ? JSON.parse(text) : {}).data as T };
  };

/**
 * One user's steady work: reads of lists, details and figures, and now and then a team created,
 * renamed and deleted. Every answer is recorded; the loop goes on whatever it gets.
 */
async function userLoad(
  call: ReturnType<typeof caller>,
  base: string,
  worker: number,
  running: () => boolean,
  outcomes: Outcome[],
) {
  const request = async <T>(method: string, path: string, body?: unknown) => {
    const what = `${method} ${path}`;
    try {
      const res = await call<T>(base, method, path, body);
      outcomes.push({ what, status: res.status });
      return res.status === 200 ? res.data : undefined;
    } catch (error) {
      outcomes.push({ what: `${what}: ${String(error)}`, status: 0 });
      return undefined;
    }
  };
  const reads = [
    '/virtualMachines/list?rowsPerPage=25',
    '/teams/list',
    '/dashboard/summary',
    '/users/me',
    '/activity/list?rowsPerPage=10',
    '/networks/list',
  ];
  for (let round = 0; running(); round += 1) {
    for (const path of reads) await request('GET', path);
    const created = await request<{ teamId: number }>('POST', '/teams/create', {
      name: `load-${worker}-${round}`,
    });
    if (!created) continue;
    await request('POST', '/teams/update', {
      teamId: created.teamId,
      name: `load-${worker}-${round}-renamed`,
    });
    await request('DELETE', '/teams/delete', { teamId: created.teamId });
  }
}

/**
 * A live event stream through the balancer, as the console keeps one: told to reconnect, it comes
 * back after the id it was given; any other end is a drop. Answers the ids it received.
 */
function followEvents(base: string, token: string, after: number, stop: AbortSignal) {
  const received: number[] = [];
  const state = { reconnects: 0, drops: 0, received };
  const running = () => !stop.aborted;
  const done = (async () => {
    let last = String(after);
    while (running()) {
      let told = false;
      try {
        const res = await fetch(`${base}/api/v1/events?lastEventId=${last}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          signal: stop,
        });
        if (res.status !== 200 || !res.body) throw new Error(`events: ${res.status}`);
        for await (const message of serverSentEvents(res.body)) {
          if (message.event === 'activity') {
            received.push(Number(message.id));
            last = message.id;
          }
          if (message.event === 'reconnect') {
            if (message.id) last = message.id;
            told = true;
            break;
          }
        }
      } catch {
        // A drop: counted below.
      }
      if (told) state.reconnects += 1;
      else if (running()) {
        state.drops += 1;
        await sleep(1_000);
      }
    }
  })();
  return { state, done };
}

/** The ids of every event the Admin may see after `after`, read through the API. */
async function eventIdsAfter(call: ReturnType<typeof caller>, base: string, after: number) {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call<{ data: ActivityEvent[]; totalPages: number }>(
      base,
      'GET',
      `/activity/list?rowsPerPage=100&page=${page}`,
    );
    expect(res.status).toBe(200);
    const newer = res.data.data.filter((e) => e.id > after);
    ids.push(...newer.map((e) => e.id));
    if (newer.length < res.data.data.length || page >= res.data.totalPages) break;
  }
  return ids.sort((a, b) => a - b);
}

// Skipped without PostgreSQL, and says why: two processes cannot share one embedded PGlite folder.
describe.skipIf(!adminUrl)(
  'a rolling restart behind a load balancer (needs PRODUCTION_DATABASE_URL: two processes share a PostgreSQL)',
  () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => {});
    });

    it('fails no request, hands a running operation over at once and loses no live event', async () => {
      const database = await createDatabase(adminUrl!, 'launchpad_rolling');
      cleanup.push(() => dropDatabase(adminUrl!, database.name));
      const env = {
        DATABASE_URL: database.url,
        APP_SECRET: randomBytes(24).toString('hex'),
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        OPERATOR_TOKEN,
        SIM_PROVISION_SECONDS: '2',
        SIM_ACTION_SECONDS: '1',
        LOG_LEVEL: 'info',
        // Readiness says 503 for this long before the listener closes: the balancer, asking twice
        // a second, stops sending first (a Kubernetes preStop pause does the same).
        SHUTDOWN_DELAY_SECONDS: '2',
      };
      const start = async () => {
        const server = await startServerProcess({ env });
        cleanup.push(async () => {
          await server.kill();
          rmSync(server.dataDir, { recursive: true, force: true });
        });
        return server;
      };
      // One after the other: the first migrates the new database.
      const first = await start();
      const second = await start();
      const balancer: LoadBalancer = await startLoadBalancer({
        readinessPath: '/api/v1/healthCheck/ready',
        pollMs: 500,
      });
      cleanup.push(() => balancer.close());
      balancer.add(first.url);
      balancer.add(second.url);
      await eventually(async () => balancer.ready().length === 2, 10, 'both backends ready');

      const token = await sessionToken(first);
      const call = caller(token);
      // The region's default network, made once: a later VM is one operation.
      const order = await smallUbuntuOrder(async (method, path, body) => {
        const res = await call(balancer.url, method, path, body);
        if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
        return res.data as never;
      });
      const vm = (name: string) => ({
        ...order,
        name,
        numberOfInstances: 1,
        teamId: null,
        allocatePublicIp: false,
      });
      expect(
        (await call(balancer.url, 'POST', '/virtualMachines/create', vm('warm-up'))).status,
      ).toBe(200);
      const statusOf = async (id: number) =>
        (await call<{ status: string }>(balancer.url, 'GET', `/virtualMachines/details/${id}`)).data
          ?.status;
      const [newest] = (
        await call<{ data: ActivityEvent[] }>(balancer.url, 'GET', '/activity/list?rowsPerPage=1')
      ).data.data;

      let loading = true;
      const outcomes: Outcome[] = [];
      const users = Array.from({ length: 4 }, (_, worker) =>
        userLoad(call, balancer.url, worker, () => loading, outcomes),
      );
      const stopStream = new AbortController();
      const stream = followEvents(balancer.url, token, newest!.id, stopStream.signal);
      await sleep(3_000);

      // An operation the first process has under way when it is told to stop: its engine call
      // hangs there (the sim's fault, armed in that process only).
      const faults = await fetch(`${first.api}/sim/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', action: 'create', delayMs: 120_000 }),
      });
      expect(faults.status).toBe(200);
      const created = await call<{ ids: number[] }>(
        first.url,
        'POST',
        '/virtualMachines/create',
        vm('handed-over'),
      );
      expect(created.status).toBe(200);
      const vmId = created.data.ids[0]!;
      const sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
      cleanup.push(() => sql.end());
      const lease = async () =>
        (
          await sql.query<{ locked_by: string | null; locked_until: Date | null }>(
            `select locked_by, locked_until from operations where vm_id = $1 and kind = 'vm.create'`,
            [vmId],
          )
        ).rows[0];
      await eventually(
        async () => (await lease())?.locked_by != null,
        20,
        'the first process claims it',
      );
      const held = (await lease())!;

      // SIGTERM to the first process under load, and started again once it has gone.
      const signalled = Date.now();
      const firstExit = await first.stop();
      const stoppedMs = Date.now() - signalled;
      expect(firstExit).toBe(0);
      expect(first.output()).toMatch(/"released":1,"msg":"shutdown: leases handed back"/);
      balancer.remove(first.url);
      const third = await start();
      balancer.add(third.url);
      await eventually(async () => balancer.ready().length === 2, 30, 'the new process ready');

      // The other process took the operation over before the first one's lease would have ended.
      const submitted = async () =>
        (
          await sql.query<{ submitted_at: Date | null }>(
            `select submitted_at from operations where vm_id = $1 and kind = 'vm.create'`,
            [vmId],
          )
        ).rows[0]?.submitted_at;
      await eventually(async () => (await submitted()) != null, 30, 'the engine asked again');
      const takenOver = (await submitted())!.getTime();
      expect(takenOver).toBeLessThan(held.locked_until!.getTime());
      await eventually(async () => (await statusOf(vmId)) === 'Running', 60, 'the VM Running');

      // Then the second process, the same way.
      expect(await second.stop()).toBe(0);
      balancer.remove(second.url);
      const fourth = await start();
      balancer.add(fourth.url);
      await eventually(async () => balancer.ready().length === 2, 30, 'the new process ready');
      await sleep(AFTER_MS);
      loading = false;
      await Promise.all(users);
      stopStream.abort();
      await stream.done;

      const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
      expect(failed).toEqual([]);
      expect(balancer.failures).toEqual([]);
      // A steady load: requests answered the whole time, writes among them.
      expect(outcomes.length).toBeGreaterThan(200);
      expect(outcomes.filter((o) => o.what.startsWith('DELETE')).length).toBeGreaterThan(10);
      // The stream came back after each process's goodbye, and missed nothing.
      expect(stream.state.drops).toBe(0);
      expect(stream.state.reconnects).toBeGreaterThanOrEqual(1);
      const ids = await eventIdsAfter(call, balancer.url, newest!.id);
      const received = [...new Set(stream.state.received)].sort((a, b) => a - b);
      expect(stream.state.received).toHaveLength(received.length);
      expect(received).toEqual(ids.filter((id) => id <= Math.max(...received)));
      process.stdout.write(
        `rolling restart: ${outcomes.length} requests, all answered 2xx; ${balancer.retried} ` +
          `sent again after a refused connection; ${stream.state.reconnects} stream reconnects, ` +
          `${received.length} events; the first process exited ${stoppedMs} ms after SIGTERM, ` +
          `its operation was sent to the engine again ${takenOver - signalled} ms after it (the ` +
          `lease ran ${held.locked_until!.getTime() - signalled} ms more)\n`,
      );
    });
  },
);
