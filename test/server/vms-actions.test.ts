import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VmDetails } from '../../src/api/contract/vms';
import { virtualMachines, vmSizePeriods } from '../../server/db/vm-schema';
import { createTeam } from './support/seed';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

let w: VmWorld;
beforeAll(async () => {
  w = await startVmWorld();
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
const act = (who: Who, verb: 'start' | 'stop' | 'reset', id: number) =>
  w.call(who, 'POST', `/virtualMachines/${verb}/${id}`);
async function details(id: number, who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/virtualMachines/details/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: VmDetails }).data;
}
const statusOf = async (id: number) => (await details(id)).status;

describe('start, stop and reset', () => {
  it('stops a running VM, then starts it again, through Stopping and Starting', async () => {
    const id = await w.runningVm('power');
    expect(await act('operator', 'stop', id)).toEqual({
      status: 200,
      body: { data: null, message: 'VM is being stopped' },
    });
    expect(await statusOf(id)).toBe('Stopping');
    await w.server.finishOperations();
    expect(await statusOf(id)).toBe('Stopped');

    expect(await act('operator', 'start', id)).toMatchObject({
      status: 200,
      body: { message: 'VM is being started' },
    });
    expect(await statusOf(id)).toBe('Starting');
    await w.server.finishOperations();
    expect(await statusOf(id)).toBe('Running');
  });

  it('resets a running VM: Starting until it runs again', async () => {
    const id = await w.runningVm('reboot');
    expect(await act('manager', 'reset', id)).toMatchObject({
      status: 200,
      body: { message: 'VM is being reset' },
    });
    expect(await statusOf(id)).toBe('Starting');
    await w.server.finishOperations();
    expect(await statusOf(id)).toBe('Running');
  });

  it('refuses what the status does not allow, with 409 and a message', async () => {
    const id = await w.runningVm('rules');
    expect(await act('admin', 'start', id)).toMatchObject({
      status: 409,
      body: { message: 'The VM must be stopped or shut off to start it' },
    });
    await act('admin', 'stop', id);
    expect(await act('admin', 'stop', id)).toMatchObject({
      status: 409,
      body: { message: 'The VM is busy with another operation; try again when it ends' },
    });
    await w.server.finishOperations();
    for (const verb of ['stop', 'reset'] as const) {
      expect(await act('admin', verb, id)).toMatchObject({
        status: 409,
        body: { message: 'The VM must be running to do that' },
      });
    }
  });

  it('refuses every action on a VM that is still provisioning', async () => {
    const [id] = await w.createVms('admin', { name: 'young' });
    for (const verb of ['start', 'stop', 'reset'] as const) {
      expect(await act('admin', verb, id!)).toMatchObject({
        status: 409,
        body: { message: 'VM is still provisioning' },
      });
    }
    for (const [method, url, payload] of [
      ['DELETE', `/virtualMachines/delete/${id}`, undefined],
      ['PUT', `/virtualMachines/edit/${id}`, { name: 'renamed' }],
      ['PUT', '/virtualMachines/changeConfiguration', { id, configurationId: 6 }],
      ['GET', `/virtualMachines/getPassword/${id}`, undefined],
      ['GET', `/virtualMachines/getAccessKey/${id}`, undefined],
    ] as const) {
      const res = await w.call('admin', method, url, payload);
      expect(res, url).toMatchObject({
        status: 409,
        body: { message: 'VM is still provisioning' },
      });
    }
    await w.server.finishOperations();
  });

  it('lets only roles that operate VMs do so (a Viewer gets 403)', async () => {
    const id = await w.runningVm('guarded');
    expect(await act('viewer', 'stop', id)).toMatchObject({
      status: 403,
      body: { message: 'You do not have permission to do that' },
    });
    expect(await act('outsider', 'stop', id)).toMatchObject({ status: 404 });
    expect(await statusOf(id)).toBe('Running');
  });

  it('goes back to Stopped, with the reason, when the provider fails to start it', async () => {
    const id = await w.runningVm('flaky');
    await act('admin', 'stop', id);
    await w.server.finishOperations();
    w.server.sim.faults.inject({
      kind: 'fail',
      action: 'start',
      message: 'Host is in maintenance',
    });
    await act('admin', 'start', id);
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Stopped',
      statusMessage: 'Start failed: Host is in maintenance',
    });
  });

  it('notices a guest that shut itself down, and offers Start again', async () => {
    const id = await w.runningVm('crashy');
    const [row] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    await w.server.sim.guestShutdown(row!.providerRef!);
    expect(await details(id)).toMatchObject({ status: 'Shutoff', consoleAvailable: false });
    expect(await act('admin', 'start', id)).toMatchObject({ status: 200 });
    await w.server.finishOperations();
    expect(await statusOf(id)).toBe('Running');
  });
});

describe('GET /virtualMachines/details', () => {
  it('answers the details of the spec, the caller role and live usage', async () => {
    const id = await w.runningVm('detailed');
    const seen = await details(id, 'viewer');
    expect(seen).toEqual({
      status: 'Running',
      consoleAvailable: true,
      statusMessage: null,
      yourRoleId: 4,
      virtualMachine: {
        id,
        name: 'detailed',
        country: 'United States',
        configuration: 'Small',
        configurationId: 3,
        region: 'Los Angeles',
        regionId: (await w.catalog()).regionId,
        image: 'Ubuntu 24.04 LTS',
        imageId: expect.any(Number),
        provider: 'Sharktech',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        cpu: 6,
        ram: 10,
        disk: 180,
        username: 'ubuntu',
        hasPrivateKey: true,
        teamId: w.alphaId,
        teamName: 'Alpha',
        primaryIp: { address: expect.any(String), kind: 'public' },
      },
      usage: { cpuUsage: expect.any(Number), ramUsage: expect.any(Number) },
    });
    expect(seen.usage.cpuUsage).toBeGreaterThan(0);
    // The figures move over time.
    w.server.clock.advance(45_000);
    expect((await details(id)).usage).not.toEqual(seen.usage);
  });

  it('answers 404 for an unknown id, a team the caller is not in, and 400 for a bad id', async () => {
    const id = await w.runningVm('hidden');
    expect(await w.call('admin', 'GET', '/virtualMachines/details/999999')).toMatchObject({
      status: 404,
      body: { message: 'Virtual machine not found' },
    });
    expect(await w.call('outsider', 'GET', `/virtualMachines/details/${id}`)).toMatchObject({
      status: 404,
    });
    expect(await w.call('admin', 'GET', '/virtualMachines/details/abc')).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'id' }] },
    });
  });
});

describe('credentials and console', () => {
  it('gives the password and key to those who operate the VM, not to a Viewer', async () => {
    const id = await w.runningVm('secret');
    for (const route of ['getPassword', 'getAccessKey']) {
      expect((await w.call('operator', 'GET', `/virtualMachines/${route}/${id}`)).status).toBe(200);
      expect(await w.call('viewer', 'GET', `/virtualMachines/${route}/${id}`)).toMatchObject({
        status: 403,
      });
    }
  });

  it('answers a console address while the VM runs (console-tickets.test.ts opens it)', async () => {
    const id = await w.runningVm('consoled');
    const res = await w.call('operator', 'GET', `/virtualMachines/getConsole/${id}`);
    const { consoleUrl } = (res.body as { data: { consoleUrl: string } }).data;
    // The sim's page, behind a ticket for this VM.
    expect(consoleUrl).toMatch(
      new RegExp(`^/sim/console/${id}\\.\\d+\\.s\\d+\\.[\\w-]+\\.\\d+\\.[\\w-]+$`),
    );

    await act('admin', 'stop', id);
    expect(await w.call('operator', 'GET', `/virtualMachines/getConsole/${id}`)).toMatchObject({
      status: 409,
      body: { message: 'The console is available only while the VM is running' },
    });
    await w.server.finishOperations();
  });
});

describe('PUT /virtualMachines/changeConfiguration', () => {
  it('upgrades to a larger size: Resizing, then the new size and a new usage period', async () => {
    const id = await w.runningVm('grow');
    const res = await w.call('manager', 'PUT', '/virtualMachines/changeConfiguration', {
      id,
      configurationId: 5,
    });
    expect(res).toMatchObject({ status: 200, body: { message: 'The upgrade has started' } });
    expect(await statusOf(id)).toBe('Resizing');
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Running',
      virtualMachine: { configuration: 'Large', configurationId: 5, cpu: 12, ram: 48 },
    });
    const periods = await db()
      .select({ configurationId: vmSizePeriods.configurationId, endedAt: vmSizePeriods.endedAt })
      .from(vmSizePeriods)
      .where(eq(vmSizePeriods.vmId, id));
    expect(periods).toEqual([
      { configurationId: 3, endedAt: expect.any(Date) },
      { configurationId: 5, endedAt: null },
    ]);
  });

  it('keeps a stopped VM stopped through an upgrade', async () => {
    const id = await w.runningVm('cold');
    await act('admin', 'stop', id);
    await w.server.finishOperations();
    await w.call('admin', 'PUT', '/virtualMachines/changeConfiguration', {
      id,
      configurationId: 4,
    });
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({ status: 'Stopped', virtualMachine: { cpu: 8 } });
  });

  it('refuses a smaller or equal size, one the provider lacks, and an Operator', async () => {
    const id = await w.runningVm('picky', { providerId: await w.providerId('sim-northwind') });
    const change = (who: Who, configurationId: number) =>
      w.call(who, 'PUT', '/virtualMachines/changeConfiguration', { id, configurationId });
    for (const size of [1, 3]) {
      expect(await change('admin', size)).toMatchObject({
        status: 400,
        body: {
          errors: [
            {
              field: 'configurationId',
              message: 'Choose a configuration with more CPU cores than the current one',
            },
          ],
        },
      });
    }
    // Northwind has no Extra Large in Los Angeles.
    expect(await change('admin', 6)).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'configurationId' }] },
    });
    expect(await change('operator', 5)).toMatchObject({ status: 403 });
    expect(await change('admin', 99)).toMatchObject({ status: 400 });
    expect(await details(id)).toMatchObject({ status: 'Running', virtualMachine: { cpu: 6 } });
  });
});

describe('PUT /virtualMachines/edit', () => {
  it('renames (trimmed) and moves a VM between teams', async () => {
    const id = await w.runningVm('old-name');
    const beta = await createTeam(db(), { companyId: w.companyId, name: 'Beta' });
    expect(
      await w.call('operator', 'PUT', `/virtualMachines/edit/${id}`, { name: '  new-name  ' }),
    ).toEqual({ status: 200, body: { data: null, message: 'VM updated successfully' } });
    expect(
      await w.call('admin', 'PUT', `/virtualMachines/edit/${id}`, { teamId: beta.id }),
    ).toMatchObject({
      status: 200,
    });
    expect((await details(id)).virtualMachine).toMatchObject({
      name: 'new-name',
      teamId: beta.id,
      teamName: 'Beta',
    });
    // Now outside Alpha, Alpha's members no longer see it.
    expect((await w.call('manager', 'GET', `/virtualMachines/details/${id}`)).status).toBe(404);
    expect(
      await w.call('admin', 'PUT', `/virtualMachines/edit/${id}`, { teamId: null }),
    ).toMatchObject({
      status: 200,
    });
    expect((await details(id)).virtualMachine.teamId).toBeNull();
  });

  it('lets an Operator rename but not move, and a Manager not take a VM out of every team', async () => {
    const id = await w.runningVm('moving');
    const beta = await createTeam(db(), { companyId: w.companyId, name: 'Gamma' });
    expect(
      await w.call('operator', 'PUT', `/virtualMachines/edit/${id}`, { teamId: beta.id }),
    ).toMatchObject({
      status: 403,
    });
    // The Manager is not in Gamma.
    expect(
      await w.call('manager', 'PUT', `/virtualMachines/edit/${id}`, { teamId: beta.id }),
    ).toMatchObject({
      status: 404,
      body: { message: 'Team not found' },
    });
    expect(
      await w.call('manager', 'PUT', `/virtualMachines/edit/${id}`, { teamId: null }),
    ).toMatchObject({
      status: 403,
      body: { message: 'Only Admins can manage VMs without a team' },
    });
    expect(
      await w.call('viewer', 'PUT', `/virtualMachines/edit/${id}`, { name: 'x1' }),
    ).toMatchObject({
      status: 403,
    });
    expect((await details(id)).virtualMachine).toMatchObject({ name: 'moving', teamId: w.alphaId });
  });

  it('answers 400 when nothing is to change or the name is bad', async () => {
    const id = await w.runningVm('stay');
    expect(await w.call('admin', 'PUT', `/virtualMachines/edit/${id}`, {})).toMatchObject({
      status: 400,
      body: { message: 'name: No changes made' },
    });
    expect(
      await w.call('admin', 'PUT', `/virtualMachines/edit/${id}`, { name: 'a b' }),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'name' }] },
    });
  });
});

describe('DELETE /virtualMachines/delete', () => {
  it('removes the VM from the provider and closes its usage', async () => {
    const id = await w.runningVm('goner');
    expect(await w.call('manager', 'DELETE', `/virtualMachines/delete/${id}`)).toEqual({
      status: 200,
      body: { data: null, message: 'VM is being deleted' },
    });
    expect((await w.call('admin', 'GET', `/virtualMachines/details/${id}`)).status).toBe(404);
    await w.server.finishOperations();
    const [row] = await db().select().from(virtualMachines).where(eq(virtualMachines.id, id));
    expect(await w.server.sim.getServer(row!.providerRef!)).toBeNull();
    const [period] = await db().select().from(vmSizePeriods).where(eq(vmSizePeriods.vmId, id));
    expect(period!.endedAt).toEqual(expect.any(Date));
  });

  it('brings the VM back in Error when the provider cannot delete it', async () => {
    const id = await w.runningVm('stubborn');
    w.server.sim.faults.inject({ kind: 'fail', action: 'delete', message: 'Volume is attached' });
    await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`);
    await w.server.finishOperations();
    expect(await details(id)).toMatchObject({
      status: 'Error',
      statusMessage: 'Delete failed: Volume is attached',
    });
    // It can be deleted again.
    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`)).status).toBe(200);
    await w.server.finishOperations();
  });

  it('is refused to an Operator and during another operation', async () => {
    const id = await w.runningVm('kept');
    expect((await w.call('operator', 'DELETE', `/virtualMachines/delete/${id}`)).status).toBe(403);
    await act('admin', 'stop', id);
    expect(await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`)).toMatchObject({
      status: 409,
    });
    await w.server.finishOperations();
  });
});
