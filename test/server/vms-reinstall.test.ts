import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/api/contract/activity';
import type { VmDetails } from '../../src/api/contract/vms';
import { images, regions } from '../../server/db/catalog-schema';
import { publicIps, vmInterfaces } from '../../server/db/network-schema';
import { sshKeys } from '../../server/db/self-service-schema';
import { virtualMachines } from '../../server/db/vm-schema';
import { simServers } from '../../server/providers/sim/schema';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
const reinstall = (who: Who, id: number, body: object) =>
  w.call(who, 'POST', `/virtualMachines/reinstall/${id}`, body);

async function details(id: number) {
  const res = await w.call('admin', 'GET', `/virtualMachines/details/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: VmDetails }).data;
}
const password = async (id: number) =>
  (
    (await w.call('admin', 'GET', `/virtualMachines/getPassword/${id}`)).body as {
      data: { sshPassword: string };
    }
  ).data.sshPassword;
const privateKey = async (id: number) => {
  const res = await w.call('admin', 'GET', `/virtualMachines/getAccessKey/${id}`);
  return {
    status: res.status,
    ...(res.body as { data: { privateKey: string } | null; message: string }),
  };
};

/** An image of the catalogue by its sim key, in a region (Los Angeles unless told). */
async function imageId(key: string, regionKey = 'us-lax-1') {
  const [row] = await db()
    .select({ id: images.id })
    .from(images)
    .innerJoin(regions, eq(regions.id, images.regionId))
    .where(and(eq(images.key, key), eq(regions.key, regionKey)));
  return row!.id;
}

async function simServerOf(vmId: number) {
  const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, vmId));
  const [server] = await db().select().from(simServers).where(eq(simServers.ref, vm!.providerRef!));
  return server!;
}

/** The VM's interfaces and public addresses, as rows: a reinstall must leave them as they are. */
async function networkOf(vmId: number) {
  return db()
    .select({
      id: vmInterfaces.id,
      networkId: vmInterfaces.networkId,
      privateIp: vmInterfaces.privateIp,
      macAddress: vmInterfaces.macAddress,
      status: vmInterfaces.status,
      publicIp: publicIps.address,
    })
    .from(vmInterfaces)
    .leftJoin(publicIps, eq(publicIps.interfaceId, vmInterfaces.id))
    .where(eq(vmInterfaces.vmId, vmId))
    .orderBy(asc(vmInterfaces.id));
}

async function reinstallEvents(vmId: number) {
  const res = await w.call('admin', 'GET', `/activity/list?subjectType=vm&subjectId=${vmId}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: ActivityEvent[] } }).data.data
    .filter((e) => e.action === 'vm.reinstall')
    .map((e) => ({ outcome: e.outcome, detail: e.detail }))
    .reverse();
}

describe('POST /virtualMachines/reinstall/{id}', () => {
  it('rebuilds a running VM from another image with a new password and key, keeping the rest', async () => {
    const id = await w.runningVm('rebuilt', { allocatePublicIp: true });
    const before = await details(id);
    const network = await networkOf(id);
    expect(network[0]!.publicIp).not.toBeNull();
    const oldPassword = await password(id);
    const oldKey = (await privateKey(id)).data!.privateKey;
    const debian = await imageId('debian-12');

    expect(await reinstall('operator', id, { imageId: debian })).toEqual({
      status: 200,
      body: { data: null, message: 'The reinstall has started' },
    });
    expect((await details(id)).status).toBe('Reinstalling');
    // Until it is done, the old credentials are still the VM's.
    expect(await password(id)).toBe(oldPassword);

    await w.server.finishOperations();
    const after = await details(id);
    expect(after).toMatchObject({ status: 'Running', statusMessage: null });
    expect(after.virtualMachine).toMatchObject({
      name: 'rebuilt',
      image: 'Debian 12',
      imageId: debian,
      username: 'debian',
      configurationId: before.virtualMachine.configurationId,
      teamId: before.virtualMachine.teamId,
      primaryIp: before.virtualMachine.primaryIp,
    });
    expect(await networkOf(id)).toEqual(network);

    const newPassword = await password(id);
    expect(newPassword).not.toBe(oldPassword);
    expect(newPassword).toHaveLength(20);
    const newKey = (await privateKey(id)).data!.privateKey;
    expect(newKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    expect(newKey).not.toBe(oldKey);

    const server = await simServerOf(id);
    expect(server).toMatchObject({ imageKey: 'debian-12', task: null, powerState: 'running' });
    const [vm] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(server.publicKey).toBe(vm!.publicKey);
    expect(server.authorizedKeys).toEqual([vm!.publicKey]);
    expect(vm!.publicKey).toMatch(/^ssh-ed25519 \S+ debian@rebuilt$/);

    expect(await reinstallEvents(id)).toEqual([
      { outcome: 'requested', detail: { from: 'Ubuntu 24.04 LTS', to: 'Debian 12' } },
      { outcome: 'succeeded', detail: { from: 'Ubuntu 24.04 LTS', to: 'Debian 12' } },
    ]);
  });

  it('keeps a stopped VM stopped, and rebuilds from the same image', async () => {
    const id = await w.runningVm('parked');
    await w.call('admin', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations();
    const same = (await details(id)).virtualMachine.imageId;
    const oldPassword = await password(id);

    expect((await reinstall('manager', id, { imageId: same })).status).toBe(200);
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Stopped',
      virtualMachine: { imageId: same, image: 'Ubuntu 24.04 LTS' },
    });
    expect(await password(id)).not.toBe(oldPassword);
    expect((await simServerOf(id)).powerState).toBe('shutoff');
  });

  it('gives the guest only the chosen account keys, and no key pair to download', async () => {
    const id = await w.runningVm('keyed');
    const line =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPx3c3RrZXlzZm9ydGVzdGluZ29ubHkxMjM0NTY3 ops@laptop';
    const [own] = await db()
      .insert(sshKeys)
      .values({
        userId: w.userIds.operator,
        companyId: w.companyId,
        name: 'laptop',
        publicKey: line,
        fingerprint: 'SHA256:test-laptop',
      })
      .returning({ id: sshKeys.id });
    const [someoneElses] = await db()
      .insert(sshKeys)
      .values({
        userId: w.userIds.manager,
        companyId: w.companyId,
        name: 'not yours',
        publicKey: line,
        fingerprint: 'SHA256:test-manager',
      })
      .returning({ id: sshKeys.id });
    const ubuntu = await imageId('ubuntu-22.04');

    expect(
      await reinstall('operator', id, { imageId: ubuntu, sshKeyIds: [someoneElses!.id] }),
    ).toMatchObject({ status: 400, body: { errors: [{ field: 'sshKeyIds' }] } });
    expect((await details(id)).status).toBe('Running');

    expect(
      (await reinstall('operator', id, { imageId: ubuntu, sshKeyIds: [own!.id] })).status,
    ).toBe(200);
    await w.server.finishOperations();
    const server = await simServerOf(id);
    expect(server).toMatchObject({ imageKey: 'ubuntu-22.04', publicKey: null });
    expect(server.authorizedKeys).toEqual([line]);
    expect(await privateKey(id)).toMatchObject({
      status: 409,
      data: null,
      message: 'This VM was given your SSH keys only: it has no private key to download',
    });
  });

  it('answers 400 naming imageId for an image its provider does not offer in its region', async () => {
    // Northwind offers Los Angeles only its Linux images; Sharktech offers Windows there too.
    const id = await w.runningVm('northwind', {
      providerId: await w.providerId('sim-northwind'),
    });
    const cases = [await imageId('windows-2022'), await imageId('debian-12', 'nl-ams-1'), 999_999];
    for (const bad of cases) {
      expect(await reinstall('admin', id, { imageId: bad })).toMatchObject({
        status: 400,
        body: {
          message: "The VM's provider does not offer this image in its region",
          errors: [{ field: 'imageId' }],
        },
      });
    }
    expect(await reinstall('admin', id, {})).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'imageId' }] },
    });
    expect((await details(id)).status).toBe('Running');
  });

  it('is refused to a Viewer (403) and answers 404 to another company or team', async () => {
    const id = await w.runningVm('guarded');
    const ubuntu = await imageId('ubuntu-24.04');
    expect(await reinstall('viewer', id, { imageId: ubuntu })).toMatchObject({
      status: 403,
      body: { message: 'You do not have permission to do that' },
    });
    expect(await reinstall('outsider', id, { imageId: ubuntu })).toMatchObject({
      status: 404,
      body: { message: 'Virtual machine not found' },
    });
    // Another company's VM looks exactly like one that does not exist.
    const strangers = [await w.runningVm('theirs')];
    await db()
      .update(virtualMachines)
      .set({ companyId: w.other.companyId, teamId: w.other.teamId })
      .where(eq(virtualMachines.id, strangers[0]!));
    expect(await reinstall('admin', strangers[0]!, { imageId: ubuntu })).toMatchObject({
      status: 404,
      body: { message: 'Virtual machine not found' },
    });
    await db()
      .update(virtualMachines)
      .set({ companyId: w.companyId, teamId: w.alphaId })
      .where(eq(virtualMachines.id, strangers[0]!));
    expect((await details(id)).status).toBe('Running');
    expect((await details(strangers[0]!)).status).toBe('Running');
  });

  it('answers 409 while the VM provisions, reinstalls already, or is being deleted', async () => {
    const ubuntu = await imageId('ubuntu-24.04');
    const [young] = await w.createVms('admin', { name: 'young' });
    expect(await reinstall('admin', young!, { imageId: ubuntu })).toMatchObject({
      status: 409,
      body: { message: 'VM is still provisioning' },
    });
    await w.server.finishOperations();

    expect((await reinstall('admin', young!, { imageId: ubuntu })).status).toBe(200);
    expect(await reinstall('admin', young!, { imageId: ubuntu })).toMatchObject({
      status: 409,
      body: { message: 'The VM is busy with another operation; try again when it ends' },
    });
    await w.server.finishOperations();

    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${young}`)).status).toBe(200);
    expect(await reinstall('admin', young!, { imageId: ubuntu })).toMatchObject({
      status: 409,
      body: { message: 'The VM is being deleted' },
    });
    // Not to someone who could not see it: for them it stays a VM that does not exist.
    expect((await reinstall('outsider', young!, { imageId: ubuntu })).status).toBe(404);
    await w.server.finishOperations();
    expect(await reinstall('admin', young!, { imageId: ubuntu })).toMatchObject({
      status: 404,
    });
  });

  it('leaves the VM in Error with the reason and its old credentials when the rebuild fails', async () => {
    const id = await w.runningVm('fragile');
    const oldPassword = await password(id);
    const rocky = await imageId('rocky-9');
    w.server.sim.faults.inject({
      kind: 'fail',
      action: 'rebuild',
      message: 'The image could not be written to the disk',
    });
    expect((await reinstall('admin', id, { imageId: rocky })).status).toBe(200);
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Error',
      statusMessage: 'Reinstall failed: The image could not be written to the disk',
      virtualMachine: { image: 'Ubuntu 24.04 LTS', username: 'ubuntu' },
    });
    expect(await password(id)).toBe(oldPassword);
    expect(await reinstallEvents(id)).toEqual([
      { outcome: 'requested', detail: { from: 'Ubuntu 24.04 LTS', to: 'Rocky Linux 9' } },
      {
        outcome: 'failed',
        detail: {
          from: 'Ubuntu 24.04 LTS',
          to: 'Rocky Linux 9',
          reason: 'The image could not be written to the disk',
        },
      },
    ]);

    // A reinstall is how a VM in Error is mended.
    expect((await reinstall('admin', id, { imageId: rocky })).status).toBe(200);
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Running',
      statusMessage: null,
      virtualMachine: { image: 'Rocky Linux 9', username: 'rocky' },
    });
    expect(await password(id)).not.toBe(oldPassword);
  });
});

describe('GET /virtualMachines/listImages/{regionId}?vmId=', () => {
  it("lists the images the VM's provider offers in its region, for the reinstall dialog", async () => {
    const names = async (regionId: number, vmId: number, who: Who = 'viewer') => {
      const res = await w.call(who, 'GET', `/virtualMachines/listImages/${regionId}?vmId=${vmId}`);
      return res.status === 200
        ? (res.body as { data: { name: string }[] }).data.map((i) => i.name)
        : res.status;
    };
    const sharktech = await w.runningVm('sharky');
    const northwind = await w.runningVm('windy', {
      providerId: await w.providerId('sim-northwind'),
    });
    const { regionId } = await w.catalog();
    const linux = ['Debian 12', 'Rocky Linux 9', 'Ubuntu 22.04 LTS', 'Ubuntu 24.04 LTS'];
    expect(await names(regionId, northwind)).toEqual(linux);
    expect(await names(regionId, sharktech)).toEqual([...linux, 'Windows Server 2022']);
    expect(await names((await w.catalog('nl-ams-1')).regionId, sharktech)).toBe(404);
    expect(await names(regionId, sharktech, 'outsider')).toBe(404);
  });
});
