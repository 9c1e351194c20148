import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app';
import { connectPostgres, type Database } from '../../server/db/client';
import * as schema from '../../server/schema';
import { openEventStream, type EventStreamClient } from './support/event-stream';
import { startVmWorld, type VmWorld } from './support/vm-world';
import { signIn } from './support/sign-in';

/**
 * Two server processes on one PostgreSQL (as behind a load balancer): a change made through one
 * reaches the streams of both, each event once. Needs DATABASE_URL (CI's PostgreSQL run).
 */
describe.skipIf(!process.env.DATABASE_URL)('two server processes on one database', () => {
  let w: VmWorld;
  let second: { app: App; database: Database };
  const streams: EventStreamClient[] = [];

  const urlOf = (app: App) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    w = await startVmWorld();
    await w.server.app.listen({ host: '127.0.0.1', port: 0 });
    const database = connectPostgres(schema, w.server.databaseUrl!);
    const app = await buildApp({
      config: w.server.config,
      db: database.db,
      mailer: { send: async () => {} },
      drivers: w.server.drivers,
      clock: w.server.clock,
      listen: database.listen,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    second = { app, database };
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await second?.app.close();
    await second?.database.close();
    await w?.close();
  });

  it('delivers every event once to the streams of both', async () => {
    const token = (await signIn(w.server, 'admin@a.test')).token;
    const here = await openEventStream(urlOf(w.server.app), token);
    const there = await openEventStream(urlOf(second.app), token);
    streams.push(here, there);
    expect([here.status, there.status]).toEqual([200, 200]);
    const vmIds = await w.createVms('admin', { name: 'twin', numberOfInstances: 3 });
    await w.server.finishOperations();
    for (const id of vmIds) await w.call('operator', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations();
    // 3 VMs x (created requested, status, created succeeded, stop requested, 2 statuses, stop
    // succeeded), and the default network's two.
    const expected = 3 * 7 + 2;
    await here.waitFor(expected);
    await there.waitFor(expected);
    const ids = here.received.map((s) => s.id);
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(there.received.map((s) => s.id)).toEqual(ids);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(there.received).toHaveLength(expected);
  });

  it('hears again after its LISTEN connection is lost, and misses nothing meanwhile', async () => {
    const token = (await signIn(w.server, 'admin@a.test')).token;
    const stream = await openEventStream(urlOf(second.app), token);
    streams.push(stream);
    await second.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'launchpad-listen' and datname = current_database()`,
    );
    // Made while no process listens: the streams learn of them when LISTEN is back.
    const [vmId] = await w.createVms('admin', { name: 'after-the-cut' });
    await w.server.finishOperations();
    await stream.waitUntil(() =>
      stream.received.some((s) => s.event.subject.id === vmId && s.event.outcome === 'succeeded'),
    );
    expect(
      stream.received.filter((s) => s.event.subject.id === vmId).map((s) => s.event.action),
    ).toEqual(['vm.created', 'vm.status', 'vm.created']);
  });
});
