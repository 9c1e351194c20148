import type { AddressInfo } from 'node:net';
import { eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { events } from '../../server/db/event-schema';
import { ENGINE_HEALTH_TTL_MS } from '../../server/domain/monitoring/diagnostics';
import { createSecretBox } from '../../server/domain/secrets';
import { operations } from '../../server/jobs/schema';
import { createReconciler } from '../../server/jobs/worker';
import { simServers } from '../../server/providers/sim/schema';
import { gracefulShutdown } from '../../server/shutdown';
import { consoleUrlFor, openedConsole } from './support/console-client';
import { openEventStream } from './support/event-stream';
import { signIn } from './support/sign-in';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * A process told to stop (SIGTERM): what its clients and the other processes sharing its
 * database see of it.
 */

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function until(check: () => Promise<boolean> | boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const operationOf = async (w: VmWorld, vmId: number) =>
  (await w.server.database.db.select().from(operations).where(eq(operations.vmId, vmId)))[0]!;

const statusOf = async (w: VmWorld, vmId: number) =>
  (
    (await w.call('admin', 'GET', `/virtualMachines/details/${vmId}`)).body as {
      data: { status: string };
    }
  ).data.status;

describe("a process's operation leases", () => {
  let w: VmWorld;
  beforeAll(async () => {
    w = await startVmWorld();
    // The region's default network exists: a new VM is one operation, straight to the engine.
    await w.runningVm('first');
  }, 60_000);
  afterAll(() => w?.close());

  it('are handed back in one statement, and another process takes over while a call still hangs here', async () => {
    const { server } = w;
    const other = createReconciler({
      db: server.database.db,
      clock: server.clock,
      drivers: server.drivers,
      secrets: createSecretBox(server.config.appSecret),
      log: quiet,
      workerId: 'another-process',
    });
    server.sim.faults.inject({ kind: 'slow', action: 'create', delayMs: 1_500 });
    const [vmId] = await w.createVms('admin', { name: 'handed-over' });
    const stuck = server.reconciler.runOnce();
    await until(async () => (await operationOf(w, vmId!)).lockedBy === 'test-worker', 'claim');
    // The lease holds it from the other process, on a clock that does not move.
    expect(await other.runOnce()).toBe(0);

    expect(await server.reconciler.releaseLeases()).toBe(1);
    expect(await operationOf(w, vmId!)).toMatchObject({ lockedBy: null, lockedUntil: null });
    expect(await other.runOnce()).toBe(1);
    expect((await operationOf(w, vmId!)).submittedAt).not.toBeNull();

    // The hung call ends here: what it would have written is dropped, and the engine built one
    // server for the operation's client token.
    await stuck;
    const op = await operationOf(w, vmId!);
    expect(op.attempts).toBe(1);
    const built = await server.database.db
      .select()
      .from(simServers)
      .where(eq(simServers.clientToken, op.clientToken));
    expect(built).toHaveLength(1);
    await server.finishOperations();
    expect(await statusOf(w, vmId!)).toBe('Running');
    expect((await operationOf(w, vmId!)).status).toBe('succeeded');
  });

  it('are none to hand back when the process holds nothing', async () => {
    expect(await w.server.reconciler.releaseLeases()).toBe(0);
  });
});

describe('a shutdown signal', () => {
  let w: VmWorld;
  let running: number;
  beforeAll(async () => {
    w = await startVmWorld();
    running = await w.runningVm('first');
  }, 60_000);
  afterAll(async () => {
    // The hung driver call ends before the database goes back to the pool.
    await w?.server.reconciler.stop();
    await w?.close();
  });

  it('takes the process out of rotation, hands its work over and lets every client go cleanly', async () => {
    const { server } = w;
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const { token } = await signIn(server, 'admin@a.test');
    const stream = await openEventStream(base, token);
    const term = await openedConsole(server, await consoleUrlFor(server, token, running), {
      token,
    });
    await term.waitFor('login:');

    // A request in flight: the engines' health check, in a slow engine call.
    server.clock.advance(ENGINE_HEALTH_TTL_MS + 1);
    server.sim.faults.inject({ kind: 'slow', action: 'health', delayMs: 1_000 });
    const health = vi.spyOn(server.sim, 'health');
    const inFlight = fetch(`${base}/api/v1/healthCheck/remoteAPI`);
    await until(() => health.mock.calls.length > 0, 'the health check');

    // An operation under way: the reconciler's loop in a driver call that hangs.
    server.sim.faults.inject({ kind: 'slow', action: 'create', delayMs: 3_000 });
    const [vmId] = await w.createVms('admin', { name: 'left-behind' });
    server.reconciler.start();
    await until(async () => (await operationOf(w, vmId!)).lockedBy === 'test-worker', 'claim');
    const [newest] = await server.database.db
      .select({ seq: max(events.seq) })
      .from(events)
      .where(eq(events.companyId, w.companyId));
    await stream.waitUntil(() => stream.received.at(-1)?.id === newest!.seq);
    expect(stream.received.at(-1)?.id).toBe(newest!.seq);

    const steps: string[] = [];
    let exited: (code: number) => void = () => {};
    const exit = new Promise<number>((resolve) => (exited = resolve));
    const shutdown = gracefulShutdown({
      readiness: server.readiness,
      workers: { reconciler: server.reconciler },
      closeServer: async () => {
        steps.push('server closing');
        await server.app.close();
        steps.push('server closed');
      },
      closeDatabase: async () => {
        steps.push('database closed');
      },
      log: quiet,
      delayMs: 500,
      timeoutMs: 10_000,
      stepGraceMs: 200,
      exit: (code) => exited(code),
    });
    shutdown('SIGTERM');

    // At once: not ready, while still accepting, and no connection kept for another request.
    const ready = await fetch(`${base}/api/v1/healthCheck/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('connection')).toBe('close');
    expect(((await ready.json()) as { data: { checks: object } }).data.checks).toMatchObject({
      process: 'shuttingDown',
    });
    expect(steps).toEqual([]);

    expect(await exit).toBe(0);
    expect(steps).toEqual(['server closing', 'server closed', 'database closed']);
    // The request in flight was answered, with the connection closed after it.
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.headers.get('connection')).toBe('close');
    // The stream was told to come back (elsewhere) after the company's newest event, then ended.
    await stream.ended;
    expect(stream.reconnects).toHaveLength(1);
    expect(stream.reconnects[0]!.id).toBe(newest!.seq);
    expect(stream.reconnects[0]!.retryMs).toBeGreaterThanOrEqual(250);
    expect(stream.reconnects[0]!.retryMs).toBeLessThanOrEqual(1_250);
    // The guest console was closed as a restart (1012), the page asked to open it again.
    expect(await term.closed).toEqual({
      code: 1012,
      reason: 'The server is restarting: open the console again',
    });
    // The operation's lease was handed back while its driver call still hung.
    expect(health.mock.calls.length).toBe(1);
    expect(await operationOf(w, vmId!)).toMatchObject({ lockedBy: null, status: 'running' });
    // And no new connection is taken.
    await expect(fetch(`${base}/api/v1/healthCheck/api`)).rejects.toThrow();
  });
});
