import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import type { SnapshotList, VmSnapshot } from '../../src/api/contract/vm-snapshots';
import type { VmDetails } from '../../src/api/contract/vms';
import { images } from '../../server/db/catalog-schema';
import { companyLimits } from '../../server/db/limit-schema';
import { vmSnapshots } from '../../server/db/self-service-schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { simServers, simSnapshots } from '../../server/providers/sim/schema';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * A VM's snapshots through the real endpoints, on the sim with its delays (the test clock moved
 * a second at a time until the operations end): taken, listed, restored and deleted, with the
 * per-VM and per-company limits, the roles, other companies, and the VM's own delete.
 */

let w: VmWorld;
let strangerToken: string;
beforeAll(async () => {
  w = await startVmWorld();
  ({ token: strangerToken } = await signIn(w.server, 'stranger@b.test'));
}, 60_000);
afterAll(() => w?.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
const base = '/virtualMachines/snapshots';

const take = (who: Who, vmId: number, name: unknown = 'before upgrade') =>
  w.call(who, 'POST', `${base}/create/${vmId}`, { name });
const restore = (who: Who, id: number) => w.call(who, 'POST', `${base}/restore/${id}`);
const remove = (who: Who, id: number) => w.call(who, 'DELETE', `${base}/delete/${id}`);

async function list(vmId: number, who: Who = 'admin'): Promise<VmSnapshot[]> {
  const res = await w.call(who, 'GET', `${base}/list/${vmId}`);
  expect(res.status).toBe(200);
  return (res.body as { data: SnapshotList }).data.snapshots;
}

async function details(id: number): Promise<VmDetails> {
  const res = await w.call('admin', 'GET', `/virtualMachines/details/${id}`);
  return (res.body as { data: VmDetails }).data;
}

/** Takes a snapshot as the Operator and waits for it; answers its id. */
async function taken(vmId: number, name = 'snap'): Promise<number> {
  const res = await take('operator', vmId, name);
  expect(res.status).toBe(200);
  await w.server.finishOperations();
  return (res.body as { data: { id: number } }).data.id;
}

async function vmEvents(vmId: number): Promise<ActivityEvent[]> {
  const res = await w.call(
    'admin',
    'GET',
    `/activity/list?subjectType=vm&subjectId=${vmId}&rowsPerPage=100`,
  );
  expect(res.status).toBe(200);
  return (res.body as { data: { data: ActivityEvent[] } }).data.data;
}

async function serverRow(vmId: number) {
  const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, vmId));
  const [server] = await db().select().from(simServers).where(eq(simServers.ref, vm!.providerRef!));
  return server!;
}

describe('taking, listing, restoring and deleting a snapshot', () => {
  it('takes a snapshot through creating to available, with its size, and lists it', async () => {
    const vmId = await w.runningVm('snappy');
    const res = await take('operator', vmId, '  before upgrade  ');
    expect(res).toMatchObject({
      status: 200,
      body: { data: { id: expect.any(Number) }, message: 'The snapshot is being taken' },
    });
    expect(await list(vmId)).toEqual([
      expect.objectContaining({ name: 'before upgrade', status: 'creating', sizeBytes: null }),
    ]);
    // The sim takes its time: still creating after two seconds.
    w.server.clock.advance(2000);
    await w.server.reconciler.drain();
    expect((await list(vmId))[0]!.status).toBe('creating');
    await w.server.finishOperations();

    const [snapshot] = await list(vmId, 'viewer');
    expect(snapshot).toMatchObject({ status: 'available', statusMessage: null, vmId });
    expect(snapshot!.sizeBytes).toBeGreaterThan(100 * 1024 * 1024);
    const [row] = await db()
      .select()
      .from(simSnapshots)
      .where(eq(simSnapshots.serverRef, (await serverRow(vmId)).ref));
    expect(row).toMatchObject({ state: 'available', name: 'before upgrade' });
    // The VM ran on all along.
    expect((await details(vmId)).status).toBe('Running');

    const events = await vmEvents(vmId);
    expect(
      events.filter((e) => e.action === 'vm.snapshot').map((e) => [e.outcome, e.detail.snapshot]),
    ).toEqual([
      ['succeeded', 'before upgrade'],
      ['requested', 'before upgrade'],
    ]);
  });

  it('restores a running VM: Restoring, then Running again on the image the snapshot was of', async () => {
    const vmId = await w.runningVm('restorable');
    const id = await taken(vmId);
    // Reinstalled on another image since: the restore goes back to the snapshot's.
    const before = {
      server: await serverRow(vmId),
      imageId: (await details(vmId)).virtualMachine.imageId,
    };
    const [other] = await db()
      .select({ id: images.id })
      .from(images)
      .where(
        and(
          eq(images.regionId, (await details(vmId)).virtualMachine.regionId),
          ne(images.id, before.imageId),
        ),
      )
      .limit(1);
    const reinstalled = await w.call('operator', 'POST', `/virtualMachines/reinstall/${vmId}`, {
      imageId: other!.id,
    });
    expect(reinstalled.status).toBe(200);
    await w.server.finishOperations();
    expect((await details(vmId)).virtualMachine.imageId).toBe(other!.id);
    expect((await serverRow(vmId)).imageKey).not.toBe(before.server.imageKey);

    expect(await restore('operator', id)).toEqual({
      status: 200,
      body: { data: null, message: "The VM's disk is being restored from the snapshot" },
    });
    expect((await details(vmId)).status).toBe('Restoring');
    expect((await list(vmId))[0]!.status).toBe('restoring');
    await w.server.finishOperations();
    expect(await details(vmId)).toMatchObject({ status: 'Running', statusMessage: null });
    expect((await list(vmId))[0]!.status).toBe('available');
    expect((await serverRow(vmId)).imageKey).toBe(before.server.imageKey);
    expect((await details(vmId)).virtualMachine.imageId).toBe(before.imageId);
    const statuses = (await vmEvents(vmId))
      .filter((e) => e.action === 'vm.status')
      .map((e) => `${String(e.detail.from)}>${String(e.detail.to)}`);
    expect(statuses.slice(0, 2)).toEqual(['Restoring>Running', 'Running>Restoring']);
  });

  it('restores a stopped VM and leaves it stopped', async () => {
    const vmId = await w.runningVm('stopped-restore');
    await w.call('admin', 'POST', `/virtualMachines/stop/${vmId}`);
    await w.server.finishOperations();
    const id = await taken(vmId);
    await restore('admin', id);
    await w.server.finishOperations();
    expect((await details(vmId)).status).toBe('Stopped');
  });

  it('deletes a snapshot: it leaves the list once the provider has deleted it', async () => {
    const vmId = await w.runningVm('deletable');
    const id = await taken(vmId);
    expect(await remove('manager', id)).toEqual({
      status: 200,
      body: { data: null, message: 'The snapshot is being deleted' },
    });
    expect((await list(vmId))[0]!.status).toBe('deleting');
    await w.server.finishOperations();
    expect(await list(vmId)).toEqual([]);
    const [row] = await db()
      .select()
      .from(simSnapshots)
      .where(eq(simSnapshots.serverRef, (await serverRow(vmId)).ref));
    expect(row!.state).toBe('deleted');
    // Gone: a second delete or a restore finds nothing.
    expect(await remove('admin', id)).toMatchObject({
      status: 404,
      body: { message: 'Snapshot not found' },
    });
    expect(await restore('admin', id)).toMatchObject({ status: 404 });
  });
});

describe('the rules', () => {
  it('refuses a missing, empty or long name with a 400 naming `name`', async () => {
    const vmId = await w.runningVm('named');
    for (const [name, message] of [
      [undefined, 'Snapshot name is required'],
      ['   ', 'Snapshot name is required'],
      ['x'.repeat(65), 'Snapshot name must not exceed 64 characters'],
    ] as const) {
      const res = await w.call(
        'admin',
        'POST',
        `${base}/create/${vmId}`,
        name === undefined ? {} : { name },
      );
      expect(res.status, String(name)).toBe(400);
      expect(res.body).toMatchObject({
        data: null,
        errors: [expect.objectContaining({ field: 'name', message })],
      });
    }
    expect(await list(vmId)).toEqual([]);
  });

  it('lets a Viewer list but not take, restore or delete (403)', async () => {
    const vmId = await w.runningVm('viewed');
    const id = await taken(vmId);
    const forbidden = { status: 403, body: { message: 'You do not have permission to do that' } };
    expect(await take('viewer', vmId)).toMatchObject(forbidden);
    expect(await restore('viewer', id)).toMatchObject(forbidden);
    expect(await remove('viewer', id)).toMatchObject(forbidden);
    expect(await list(vmId, 'viewer')).toHaveLength(1);
    // Someone of the company outside the VM's team sees neither the VM nor its snapshots.
    expect(await w.call('outsider', 'GET', `${base}/list/${vmId}`)).toMatchObject({ status: 404 });
    expect(await restore('outsider', id)).toMatchObject({
      status: 404,
      body: { message: 'Snapshot not found' },
    });
  });

  it("answers 404 to another company for the VM's snapshots and each of them", async () => {
    const vmId = await w.runningVm('private');
    const id = await taken(vmId);
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      w.server.app
        .inject({
          method,
          url: `/api/v1${base}${url}`,
          headers: bearer(strangerToken),
          ...(payload && { payload }),
        })
        .then((res) => ({ status: res.statusCode, body: res.json() }));
    expect(await as('GET', `/list/${vmId}`)).toMatchObject({
      status: 404,
      body: { message: 'Virtual machine not found' },
    });
    expect(await as('POST', `/create/${vmId}`, { name: 'mine now' })).toMatchObject({
      status: 404,
    });
    expect(await as('POST', `/restore/${id}`)).toMatchObject({
      status: 404,
      body: { message: 'Snapshot not found' },
    });
    expect(await as('DELETE', `/delete/${id}`)).toMatchObject({
      status: 404,
      body: { message: 'Snapshot not found' },
    });
    expect(await list(vmId)).toEqual([expect.objectContaining({ id, status: 'available' })]);
  });

  it('keeps at most 5 snapshots of a VM', async () => {
    const vmId = await w.runningVm('many');
    for (let n = 1; n <= 5; n += 1) await taken(vmId, `s${n}`);
    expect(await take('admin', vmId, 's6')).toEqual({
      status: 409,
      body: { data: null, message: 'A VM can keep at most 5 snapshots: delete one first' },
    });
    const [newest] = await list(vmId);
    expect(newest!.name).toBe('s5');
    await remove('admin', newest!.id);
    await w.server.finishOperations();
    expect(await take('admin', vmId, 's6')).toMatchObject({ status: 200 });
    await w.server.finishOperations();
  });

  it("holds the company to its reseller's snapshots limit, across its VMs", async () => {
    const [one, two] = [await w.runningVm('quota-1'), await w.runningVm('quota-2')];
    await db()
      .insert(companyLimits)
      .values({ companyId: w.companyId, resource: 'snapshots', regionId: null, max: 2 });
    try {
      // Snapshots of the other tests' VMs count too: start from what the company holds.
      await db()
        .update(vmSnapshots)
        .set({ deletedAt: new Date() })
        .where(eq(vmSnapshots.companyId, w.companyId));
      await taken(one);
      await taken(two);
      expect(await take('admin', one, 'third')).toEqual({
        status: 409,
        body: { data: null, message: 'The company has reached its limit of 2 snapshots' },
      });
      const limits = await w.call('admin', 'GET', '/limits');
      expect(limits.body.data.limits).toContainEqual(
        expect.objectContaining({
          resource: 'snapshots',
          max: 2,
          used: 2,
          left: 0,
          source: 'company',
        }),
      );
    } finally {
      await db()
        .delete(companyLimits)
        .where(
          and(eq(companyLimits.companyId, w.companyId), eq(companyLimits.resource, 'snapshots')),
        );
    }
  });

  it('refuses a snapshot of a VM still provisioning, or being deleted (409), then 404 once gone', async () => {
    const [young] = await w.createVms('admin', { name: 'young' });
    expect(await take('admin', young!)).toMatchObject({
      status: 409,
      body: { message: 'VM is still provisioning' },
    });
    await w.server.finishOperations();

    const vmId = await w.runningVm('doomed');
    await w.call('admin', 'DELETE', `/virtualMachines/delete/${vmId}`);
    expect(await take('operator', vmId)).toEqual({
      status: 409,
      body: { data: null, message: 'The VM is being deleted' },
    });
    await w.server.finishOperations();
    expect(await take('operator', vmId)).toMatchObject({ status: 404 });
  });

  it('runs one snapshot operation of a VM at a time, and none beside another operation', async () => {
    const vmId = await w.runningVm('serial');
    const id = await taken(vmId);
    await take('admin', vmId, 'second');
    const busy = 'Another snapshot operation of this VM is under way; try again when it ends';
    expect(await restore('admin', id)).toMatchObject({ status: 409, body: { message: busy } });
    expect(await remove('admin', id)).toMatchObject({ status: 409, body: { message: busy } });
    // Nor may the VM be stopped or deleted while its disk is being snapshotted.
    expect(await w.call('admin', 'POST', `/virtualMachines/stop/${vmId}`)).toMatchObject({
      status: 409,
    });
    await w.server.finishOperations();

    await restore('admin', id);
    // While it is restored, the VM is busy.
    expect(await w.call('admin', 'POST', `/virtualMachines/stop/${vmId}`)).toMatchObject({
      status: 409,
      body: { message: 'The VM is busy with another operation; try again when it ends' },
    });
    expect(await take('admin', vmId)).toMatchObject({ status: 409 });
    await w.server.finishOperations();
    const [newest, older] = await list(vmId);
    expect(newest!.status).toBe('available');
    // Restore or delete of one that is not available: 409.
    await remove('admin', older!.id);
    expect(await restore('admin', older!.id)).toMatchObject({
      status: 409,
      body: { message: 'The snapshot is not available: wait until it is' },
    });
    await w.server.finishOperations();
  });
});

describe('failures and the VM delete', () => {
  it('fails a take the sim fails, with its reason, and lets the failed one be deleted', async () => {
    const vmId = await w.runningVm('faulty');
    w.server.sim.faults.inject({ kind: 'fail', action: 'snapshot', message: 'Disk is busy' });
    await take('admin', vmId);
    await w.server.finishOperations();
    const [failed] = await list(vmId);
    expect(failed).toMatchObject({
      status: 'error',
      statusMessage: 'Snapshot failed: Disk is busy',
    });
    expect((await vmEvents(vmId)).find((e) => e.action === 'vm.snapshot')).toMatchObject({
      outcome: 'failed',
      detail: { snapshot: 'before upgrade', reason: 'Disk is busy' },
    });
    expect(await restore('admin', failed!.id)).toMatchObject({ status: 409 });
    expect(await remove('admin', failed!.id)).toMatchObject({ status: 200 });
    await w.server.finishOperations();
    expect(await list(vmId)).toEqual([]);
  });

  it('goes back to where it was when the restore fails, with the reason', async () => {
    const vmId = await w.runningVm('unrestorable');
    const id = await taken(vmId);
    w.server.sim.faults.inject({
      kind: 'fail',
      action: 'restore',
      message: 'Snapshot chain is damaged',
    });
    await restore('admin', id);
    await w.server.finishOperations();
    expect(await details(vmId)).toMatchObject({
      status: 'Running',
      statusMessage: 'Restore failed: Snapshot chain is damaged',
    });
    expect((await list(vmId))[0]!.status).toBe('available');
  });

  it("deletes the VM's snapshots at the provider within the VM's delete", async () => {
    const vmId = await w.runningVm('with-snapshots');
    await taken(vmId, 'one');
    await taken(vmId, 'two');
    const serverRef = (await serverRow(vmId)).ref;
    await w.call('admin', 'DELETE', `/virtualMachines/delete/${vmId}`);
    await w.server.finishOperations();
    const rows = await db()
      .select()
      .from(simSnapshots)
      .where(eq(simSnapshots.serverRef, serverRef));
    expect(rows.map((r) => r.state)).toEqual(['deleted', 'deleted']);
    const mine = await db().select().from(vmSnapshots).where(eq(vmSnapshots.vmId, vmId));
    expect(mine.every((r) => r.deletedAt !== null)).toBe(true);
    expect(await w.call('admin', 'GET', `${base}/list/${vmId}`)).toMatchObject({ status: 404 });
  });
});
