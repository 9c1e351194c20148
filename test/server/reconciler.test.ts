import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPostgres, type Db } from '../../server/db/client';
import * as schema from '../../server/schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { createSecretBox } from '../../server/domain/secrets';
import { operations } from '../../server/jobs/schema';
import { createReconciler, type Reconciler } from '../../server/jobs/worker';
import type { ProviderDriver } from '../../server/providers/driver';
import { driverMap } from '../../server/providers/registry';
import { SimDriver } from '../../server/providers/sim/driver';
import { simServers } from '../../server/providers/sim/schema';
import { TEST_SIM_TIMINGS } from './support/harness';
import { startVmWorld, type VmWorld } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** Another server process: its own sim driver (same engine state) and reconciler on `database`. */
function anotherProcess(
  workerId: string,
  options: { database?: Db; provisionMs?: number; calls?: string[] } = {},
): Reconciler {
  const database = options.database ?? db();
  const sim = new SimDriver({
    db: database,
    clock: w.server.clock,
    timings: {
      ...TEST_SIM_TIMINGS,
      provisionMs: options.provisionMs ?? TEST_SIM_TIMINGS.provisionMs,
    },
    consoleUrl: (ref) => ref,
  });
  // Records each create call this process makes, to prove that none is made twice.
  const counted: ProviderDriver = Object.assign(Object.create(sim) as SimDriver, {
    createServer: (request: Parameters<SimDriver['createServer']>[0]) => {
      options.calls?.push(`${workerId}:${request.name}`);
      return sim.createServer(request);
    },
  });
  return createReconciler({
    db: database,
    clock: w.server.clock,
    drivers: driverMap([counted]),
    secrets: createSecretBox(w.server.config.appSecret),
    log: silent,
    workerId,
  });
}

async function statusOf(id: number) {
  const [row] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
  return row!.status;
}
async function operationOf(id: number) {
  const [op] = await db().select().from(operations).where(eq(operations.vmId, id));
  return op!;
}

describe('a worker that dies', () => {
  it('leaves its operation to another worker once its lease has run out', async () => {
    const [id] = await w.createVms('admin', { name: 'orphan' });
    const op = await operationOf(id!);
    // The dead worker made the create call, and died before it could record that it had.
    const dead = anotherProcess('dead');
    for (let i = 0; i < 10 && !(await operationOf(id!)).submittedAt; i += 1) {
      await dead.runOnce();
      w.server.clock.advance(1_000);
    }
    const [made] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id!));
    const ref = made!.providerRef;
    expect(ref).toMatch(/^srv-/);
    await db()
      .update(operations)
      .set({
        status: 'running',
        submittedAt: null,
        lockedBy: 'dead',
        lockedUntil: new Date(w.server.clock.now().getTime() + 15_000),
      })
      .where(eq(operations.id, op.id));

    const survivor = anotherProcess('survivor');
    // The lease holds: nobody touches it yet.
    await survivor.runOnce();
    expect(await operationOf(id!)).toMatchObject({ lockedBy: 'dead', submittedAt: null });
    w.server.clock.advance(16_000);
    for (let i = 0; i < 10 && (await operationOf(id!)).status === 'running'; i += 1) {
      await survivor.runOnce();
      w.server.clock.advance(1_000);
    }
    expect(await statusOf(id!)).toBe('Running');
    const [row] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id!));
    // The repeated create call (same client token) found the server the dead worker made.
    expect(row!.providerRef).toBe(ref);
    const servers = await db().select().from(simServers).where(eq(simServers.name, 'orphan'));
    expect(servers).toHaveLength(1);
  });
});

describe('two workers on one database', () => {
  it('share the work without ever making a call twice', async () => {
    // On PostgreSQL the second worker has its own connection pool, as a second process would.
    const second = w.server.databaseUrl ? connectPostgres(schema, w.server.databaseUrl) : undefined;
    const calls: string[] = [];
    const a = anotherProcess('a', { calls });
    const b = anotherProcess('b', { calls, database: second?.db });
    try {
      const ids = await w.createVms('admin', { name: 'race', numberOfInstances: 10 });
      for (let round = 0; round < 20; round += 1) {
        await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
        w.server.clock.advance(1_000);
      }
      const ops = await db()
        .select()
        .from(operations)
        .where(inArray(operations.vmId, ids))
        .orderBy(asc(operations.id));
      expect(ops.map((op) => [op.status, op.attempts])).toEqual(ids.map(() => ['succeeded', 1]));
      // Each VM was created at the provider by exactly one call, from either worker.
      expect(calls.map((c) => c.split(':')[1]).sort()).toEqual(
        ids.map((_, i) => `race-${i + 1}`).sort(),
      );
      expect(calls).toHaveLength(10);
    } finally {
      await second?.close();
    }
  });
});

describe('an engine that cannot be reached', () => {
  it('is retried with growing pauses, then the operation fails with the reason', async () => {
    const id = await w.runningVm('unlucky');
    await w.call('admin', 'POST', `/virtualMachines/stop/${id}`);
    w.server.sim.faults.inject({ kind: 'unavailable', action: 'stop', times: 100 });
    await w.server.finishOperations(600);
    const op = (
      await db()
        .select()
        .from(operations)
        .where(eq(operations.vmId, id))
        .orderBy(asc(operations.id))
    ).at(-1)!;
    expect(op).toMatchObject({
      kind: 'vm.stop',
      status: 'failed',
      attempts: 8,
      lastError: 'The host of this server cannot be reached',
    });
    const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(vm).toMatchObject({
      status: 'Running',
      statusMessage: 'Stop failed: The host of this server cannot be reached',
    });
  });

  it('fails an operation the provider never finishes', async () => {
    const slow = anotherProcess('slow', { provisionMs: 60 * 60_000 });
    const [id] = await w.createVms('admin', { name: 'glacial' });
    for (let minute = 0; minute < 20; minute += 1) {
      await slow.runOnce();
      w.server.clock.advance(60_000);
    }
    await slow.runOnce();
    expect(await operationOf(id!)).toMatchObject({
      status: 'failed',
      lastError: 'The provider did not finish in time',
    });
    expect(await statusOf(id!)).toBe('Error');
  });
});

describe('a process without the driver a VM needs', () => {
  it('fails the operation and puts the VM back where it was, instead of leaving it in transition', async () => {
    const id = await w.runningVm('driverless');
    await w.call('admin', 'POST', `/virtualMachines/stop/${id}`);
    const without = createReconciler({
      db: db(),
      clock: w.server.clock,
      drivers: driverMap([]),
      secrets: createSecretBox(w.server.config.appSecret),
      log: silent,
      workerId: 'driverless',
    });
    await without.runOnce();
    const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(vm).toMatchObject({
      status: 'Running',
      statusMessage: 'Stop failed: No sim driver runs in this process',
    });
  });
});
