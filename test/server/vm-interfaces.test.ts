import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkAdapter } from '../../src/api/contract/networks';
import { publicIps, vmInterfaces } from '../../server/db/network-schema';
import { simPorts } from '../../server/providers/sim/schema';
import { QUICK_SIM_TIMINGS } from './support/harness';
import { startNetworkWorld, type NetworkWorld, type Who } from './support/network-world';

let w: NetworkWorld;
let appNet: number;
let l2Net: number;
beforeAll(async () => {
  // Its tests wait for each change to end, or look at it before the reconciler has run.
  w = await startNetworkWorld({ simTimings: QUICK_SIM_TIMINGS });
  appNet = await w.createNetwork(w.standard());
  l2Net = await w.createNetwork(w.custom());
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const db = () => w.server.database.db;
async function adapters(vmId: number, who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/networks/listNetAdapters/${vmId}`);
  expect(res.status).toBe(200);
  return (res.body as { data: NetworkAdapter[] }).data;
}
const add = (vmId: number, networkId: unknown, who: Who = 'operator') =>
  w.call(who, 'POST', `/virtualMachines/${vmId}/addNetworkInterfaces`, { networkId });
const remove = (vmId: number, networkId: number, who: Who = 'operator') =>
  w.call(who, 'DELETE', `/virtualMachines/${vmId}/removeNetworkInterfaces/${networkId}`);

describe('a new VM', () => {
  it('starts on the default network with its primary interface and a NATed public IP', async () => {
    const id = await w.runningVm('first');
    expect(await adapters(id, 'viewer')).toEqual([
      {
        id: expect.any(Number),
        vmnic: 1,
        networkId: expect.any(Number),
        networkName: 'Default network',
        cidrBlock: '10.0.0.0/22',
        gatewayIp: '10.0.0.1',
        privateIp: expect.stringMatching(/^10\.0\.[0-3]\.\d+$/),
        macAddress: expect.stringMatching(/^02(:[0-9a-f]{2}){5}$/),
        publicIp: expect.stringMatching(/^198\.18\.\d+\.\d+$/),
        snatEnabled: true,
        status: 'Active',
        statusMessage: null,
      },
    ]);
  });

  it('gets only a private address when no public IP was asked for', async () => {
    const id = await w.runningVm('private-only', { allocatePublicIp: false });
    const [primary] = await adapters(id);
    expect(primary).toMatchObject({ vmnic: 1, publicIp: null, status: 'Active' });
  });
});

describe('adding and removing interfaces', () => {
  it('plugs a standard and a custom network into a stopped VM', async () => {
    const id = await w.stoppedVm('multi');
    expect(await add(id, appNet)).toMatchObject({
      status: 200,
      body: {
        data: { interfaceId: expect.any(Number) },
        message: 'Network interface added successfully',
      },
    });
    expect((await add(id, l2Net)).status).toBe(200);
    // Attaching until the provider has plugged them in.
    expect((await adapters(id)).map((a) => [a.vmnic, a.status])).toEqual([
      [1, 'Active'],
      [2, 'Attaching'],
      [3, 'Attaching'],
    ]);
    await w.server.finishOperations();
    const [, app, l2] = await adapters(id);
    expect(app).toMatchObject({
      networkName: 'app net',
      privateIp: '10.20.0.10',
      status: 'Active',
      publicIp: null,
    });
    // Layer 2 only: no address management.
    expect(l2).toMatchObject({
      networkName: 'storage l2',
      privateIp: null,
      gatewayIp: null,
      status: 'Active',
      snatEnabled: false,
    });
    const ports = await db()
      .select()
      .from(simPorts)
      .where(inArray(simPorts.macAddress, [app!.macAddress, l2!.macAddress]));
    expect(ports.map((p) => p.state)).toEqual(['active', 'active']);
  });

  it("lists only the networks of the VM's region it is not on yet", async () => {
    const id = await w.stoppedVm('picker');
    const sin = await w.catalog('sg-sin-1');
    await w.createNetwork(
      w.custom({ name: 'far away', regionId: sin.regionId, cidrBlock: '10.99.0.0/24' }),
    );
    await add(id, appNet);
    const res = await w.call('viewer', 'GET', `/virtualMachines/${id}/availableNetworks`);
    const names = (res.body as { data: { name: string }[] }).data.map((n) => n.name);
    expect(names).toEqual(['storage l2']);
    await w.server.finishOperations();
  });

  it('refuses on a running VM, twice the same network, another region, and a sixth interface', async () => {
    const running = await w.runningVm('busy');
    expect(await add(running, appNet)).toMatchObject({
      status: 409,
      body: { message: 'Stop the VM before changing its network interfaces' },
    });
    const id = await w.stoppedVm('full');
    expect((await add(id, appNet)).status).toBe(200);
    expect(await add(id, appNet)).toMatchObject({
      status: 409,
      body: { message: 'The VM is already connected to this network' },
    });
    const sin = await w.catalog('sg-sin-1');
    const far = await w.createNetwork(
      w.custom({ name: 'elsewhere', regionId: sin.regionId, cidrBlock: '10.98.0.0/24' }),
    );
    expect(await add(id, far)).toMatchObject({
      status: 409,
      body: { message: 'The network is in another region than the VM' },
    });
    for (const [index, block] of ['10.11.0.0/24', '10.12.0.0/24', '10.13.0.0/24'].entries()) {
      const extra = await w.createNetwork(w.custom({ name: `extra ${index}`, cidrBlock: block }));
      expect((await add(id, extra)).status).toBe(200);
    }
    expect(await adapters(id)).toHaveLength(5);
    expect(await add(id, l2Net)).toMatchObject({
      status: 409,
      body: { message: 'A VM can have at most 5 network interfaces' },
    });
    await w.server.finishOperations();
  });

  it('answers 400 without a network and 404 for an unknown one', async () => {
    const id = await w.stoppedVm('picky');
    expect(await add(id, null)).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'networkId', message: 'Please select a network first' }] },
    });
    expect(await add(id, 999999)).toMatchObject({
      status: 404,
      body: { message: 'Network not found' },
    });
  });

  it('unplugs an interface, never the primary one, and frees its address', async () => {
    const id = await w.stoppedVm('shrink');
    await add(id, appNet);
    await w.server.finishOperations();
    const [primary, app] = await adapters(id);
    expect(await remove(id, primary!.networkId)).toMatchObject({
      status: 409,
      body: { message: 'The primary interface cannot be removed' },
    });
    expect(await remove(id, appNet)).toMatchObject({
      status: 200,
      body: { message: 'Network interface removed successfully' },
    });
    expect((await adapters(id))[1]).toMatchObject({ status: 'Detaching' });
    await w.server.finishOperations();
    expect((await adapters(id)).map((a) => a.vmnic)).toEqual([1]);
    const left = await db().select().from(vmInterfaces).where(eq(vmInterfaces.id, app!.id));
    expect(left).toEqual([]);
    expect(await remove(id, appNet)).toMatchObject({
      status: 404,
      body: { message: 'Network interface not found' },
    });
  });

  it('keeps a failed attach in Error with the reason, and lets it be removed', async () => {
    const id = await w.stoppedVm('unplugged');
    w.server.sim.faults.inject({ kind: 'fail', action: 'port', message: 'No free PCI slot' });
    await add(id, l2Net);
    await w.server.finishOperations();
    expect((await adapters(id))[1]).toMatchObject({
      status: 'Error',
      statusMessage: 'No free PCI slot',
    });
    expect((await remove(id, l2Net)).status).toBe(200);
    await w.server.finishOperations();
    expect(await adapters(id)).toHaveLength(1);
  });

  it('lets a Viewer see the interfaces but change nothing', async () => {
    const id = await w.stoppedVm('look');
    expect((await add(id, appNet, 'viewer')).status).toBe(403);
    expect(await adapters(id, 'viewer')).toHaveLength(1);
  });

  it('holds VM actions back while an interface is changing', async () => {
    const id = await w.stoppedVm('wait');
    await add(id, appNet);
    expect(await w.call('admin', 'POST', `/virtualMachines/start/${id}`)).toMatchObject({
      status: 409,
      body: { message: 'The VM is busy with another operation; try again when it ends' },
    });
    await w.server.finishOperations();
    expect((await w.call('admin', 'POST', `/virtualMachines/start/${id}`)).status).toBe(200);
    await w.server.finishOperations();
  });
});

describe('public IPs', () => {
  it('allocates one to an interface of a standard network while the VM runs, and releases it', async () => {
    const id = await w.stoppedVm('nat');
    await add(id, appNet);
    await w.server.finishOperations();
    await w.call('admin', 'POST', `/virtualMachines/start/${id}`);
    await w.server.finishOperations();
    const app = (await adapters(id))[1]!;
    expect(await w.call('operator', 'POST', `/networks/allocatePublicIp/${app.id}`)).toEqual({
      status: 200,
      body: { data: null, message: 'IP allocated successfully' },
    });
    // Shown once the provider has NATed it.
    expect((await adapters(id))[1]!.publicIp).toBeNull();
    await w.server.finishOperations();
    const address = (await adapters(id))[1]!.publicIp;
    expect(address).toMatch(/^198\.18\.\d+\.\d+$/);
    const [port] = await db()
      .select()
      .from(simPorts)
      .where(eq(simPorts.macAddress, app.macAddress));
    expect(port!.publicIp).toBe(address);
    expect(await w.call('operator', 'POST', `/networks/allocatePublicIp/${app.id}`)).toMatchObject({
      status: 409,
      body: { message: 'The interface already has a public IP' },
    });

    expect(await w.call('operator', 'DELETE', `/networks/releasePublicIp/${app.id}`)).toEqual({
      status: 200,
      body: { data: null, message: 'IP deallocated successfully' },
    });
    // Still there until the provider has let it go.
    expect((await adapters(id))[1]!.publicIp).toBe(address);
    await w.server.finishOperations();
    expect((await adapters(id))[1]!.publicIp).toBeNull();
    const [row] = await db().select().from(publicIps).where(eq(publicIps.address, address!));
    // Free again: no row holds it.
    expect(row).toBeUndefined();
    expect(await w.call('operator', 'DELETE', `/networks/releasePublicIp/${app.id}`)).toMatchObject(
      {
        status: 409,
        body: { message: 'The interface has no public IP' },
      },
    );
  });

  it('refuses to remove an interface while its public IP is being allocated', async () => {
    const id = await w.stoppedVm('racing');
    await add(id, appNet);
    await w.server.finishOperations();
    const app = (await adapters(id))[1]!;
    await w.call('admin', 'POST', `/networks/allocatePublicIp/${app.id}`);
    expect(await remove(id, appNet)).toMatchObject({
      status: 409,
      body: { message: 'The network interface is busy; try again when its operation ends' },
    });
    await w.server.finishOperations();
    expect((await adapters(id))[1]!.publicIp).toMatch(/^198\.18\./);
  });

  it('refuses one on a custom network (no SNAT)', async () => {
    const id = await w.stoppedVm('nonat');
    await add(id, l2Net);
    await w.server.finishOperations();
    const l2 = (await adapters(id))[1]!;
    expect(await w.call('admin', 'POST', `/networks/allocatePublicIp/${l2.id}`)).toMatchObject({
      status: 409,
      body: { message: 'A public IP needs a standard network (with SNAT)' },
    });
  });

  it('gives the address back to the pool when the VM is deleted', async () => {
    const id = await w.runningVm('leaving');
    const [primary] = await adapters(id);
    await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`);
    await w.server.finishOperations();
    const [row] = await db()
      .select()
      .from(publicIps)
      .where(eq(publicIps.address, primary!.publicIp!));
    expect(row).toBeUndefined();
    expect(await db().select().from(vmInterfaces).where(eq(vmInterfaces.vmId, id))).toEqual([]);
  });
});

describe('address management under load', () => {
  it('gives 20 VMs attached at once 20 different addresses of a pool of 29', async () => {
    // Several times as many requests at once as PostgreSQL has connections for them, into a pool
    // they nearly fill: two that raced for an address would show as two alike.
    const ids = [
      ...(await w.createVms('admin', { name: 'crowd', numberOfInstances: 10 })),
      ...(await w.createVms('admin', { name: 'crowd0', numberOfInstances: 10 })),
    ];
    await w.server.finishOperations();
    await Promise.all(ids.map((id) => w.call('admin', 'POST', `/virtualMachines/stop/${id}`)));
    await w.server.finishOperations();
    const shared = await w.createNetwork(
      w.standard({
        name: 'shared',
        cidrBlock: '10.21.0.0/27',
        dhcpStartAddress: '10.21.0.2',
        dhcpEndAddress: '10.21.0.30',
        defaultRoute: '10.21.0.1',
      }),
    );

    const answers = await Promise.all(ids.map((id) => add(id, shared, 'admin')));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
    await w.server.finishOperations();
    const rows = await db().select().from(vmInterfaces).where(eq(vmInterfaces.networkId, shared));
    const addresses = rows.map((r) => r.privateIp!);
    expect(rows).toHaveLength(20);
    expect(new Set(addresses).size).toBe(20);
    expect(
      addresses.every((a) => /^10\.21\.0\.(\d+)$/.test(a) && Number(a.split('.')[3]) >= 2),
    ).toBe(true);
    expect(rows.every((r) => r.status === 'Active')).toBe(true);
  }, 90_000);
});
