import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { VmDetails, VmPage } from '../../src/api/contract/vms';
import { connectPglite, connectPostgres, type Database } from '../../server/db/client';
import * as schema from '../../server/schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { operations } from '../../server/jobs/schema';
import { simServers } from '../../server/providers/sim/schema';
import { apiSession, eventually, smallUbuntuOrder, type ApiCall } from './support/api-session';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'durable@example.com', password: 'Durable!Journey-Passw0rd' };
const ENV = {
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  APP_SECRET: 'durability-secret-durability-secret',
  SIM_PROVISION_SECONDS: '6',
};

/** Small Ubuntu VMs in Los Angeles, in no team. */
async function order(call: ApiCall, name: string, numberOfInstances: number) {
  const { ids } = await call<{ ids: number[] }>('POST', '/virtualMachines/create', {
    ...(await smallUbuntuOrder(call)),
    name,
    numberOfInstances,
    teamId: null,
    allocatePublicIp: true,
  });
  return ids;
}

const statusOf = async (call: ApiCall, id: number) =>
  (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status;

/** Every operation and sim server row, read straight from the database once the servers are gone. */
async function engineRecords(database: Database) {
  const [ops, servers] = await Promise.all([
    database.db.select().from(operations),
    database.db.select().from(simServers),
  ]);
  return { ops, servers };
}

describe('durable operations across processes', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it('a server killed mid-provisioning finishes the work after a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-durable-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServer(ENV, { dataDir });
    cleanup.push(() => first.stop());
    const call = await apiSession(first, ADMIN);
    const [id] = await order(call, 'survivor', 1);
    // Let the reconciler hand the build to the provider, then pull the plug while it provisions.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await statusOf(call, id!)).toBe('Provisioning');
    await first.kill();

    const second = await startServer(ENV, { dataDir });
    const again = await apiSession(second, ADMIN);
    await eventually(async () => (await statusOf(again, id!)) === 'Running', 60, 'Running');
    await second.kill();

    const database = connectPglite(schema, path.join(dataDir, 'pglite'));
    try {
      const { ops, servers } = await engineRecords(database);
      // The region's default network and the VM, each built once.
      expect(ops.map((op) => [op.kind, op.status]).sort()).toEqual([
        ['network.create', 'succeeded'],
        ['vm.create', 'succeeded'],
      ]);
      // Built once: the restarted process polled the server the first one had ordered.
      expect(servers.map((s) => s.name)).toEqual(['survivor']);
    } finally {
      await database.close();
    }
  });

  const pgUrl = process.env.E2E_DATABASE_URL;
  it.runIf(pgUrl)(
    'two server processes on one PostgreSQL never run an operation twice',
    async () => {
      const name = `launchpad_e2e_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      cleanup.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      });
      const url = new URL(pgUrl!);
      url.pathname = `/${name}`;
      const env = { ...ENV, DATABASE_URL: url.toString() };

      // One after the other: the first start migrates and bootstraps.
      const a: RunningServer = await startServer(env);
      cleanup.push(() => a.stop());
      const b: RunningServer = await startServer(env);
      cleanup.push(() => b.stop());
      const viaA = await apiSession(a, ADMIN);
      const ids = await order(viaA, 'shared', 10);
      const viaB = await apiSession(b, ADMIN);
      await eventually(
        async () => {
          const page = await viaB<VmPage>('GET', '/virtualMachines/list?rowsPerPage=100');
          return page.data.length === 10 && page.data.every((vm) => vm.status === 'Running');
        },
        90,
        'ten VMs Running',
      );
      await a.stop();
      await b.stop();

      const database = connectPostgres(schema, url.toString());
      try {
        const { ops, servers } = await engineRecords(database);
        // Every operation (the ten VMs and their region's default network) ran once.
        expect(ops.filter((op) => op.kind === 'vm.create')).toHaveLength(ids.length);
        expect(ops.map((op) => [op.status, op.attempts])).toEqual(ops.map(() => ['succeeded', 1]));
        expect(servers).toHaveLength(10);
        const refs = await database.db
          .select({ ref: virtualMachines.providerRef })
          .from(virtualMachines)
          .where(eq(virtualMachines.name, 'shared-1'));
        expect(refs[0]!.ref).toMatch(/^srv-/);
      } finally {
        await database.close();
      }
    },
  );
});
