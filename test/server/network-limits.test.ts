import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkAdapter } from '../../src/api/contract/networks';
import type { VmDetails } from '../../src/api/contract/vms';
import { QUICK_SIM_TIMINGS } from './support/harness';
import { signIn } from './support/sign-in';
import { startNetworkWorld, type NetworkWorld } from './support/network-world';

/**
 * What keeps one company from exhausting what all share, and what keeps a company's region usable
 * when its default network fails to build.
 */
let w: NetworkWorld;
beforeAll(async () => {
  w = await startNetworkWorld({
    env: { QUOTA_NETWORKS_PER_REGION: '3', QUOTA_PUBLIC_IPS_PER_REGION: '3' },
    // Its tests wait for the orders they place to end, never look at one half-way.
    simTimings: QUICK_SIM_TIMINGS,
  });
});
afterAll(() => w.close());
beforeEach(() => w.server.sim.faults.clear());

const details = async (id: number) =>
  ((await w.call('admin', 'GET', `/virtualMachines/details/${id}`)).body as { data: VmDetails })
    .data;

describe('a default network whose build fails', () => {
  it('fails its VMs at once, and is ordered again with the next VM', async () => {
    w.server.sim.faults.inject({ kind: 'unavailable', action: 'network', times: 8 });
    const [first] = await w.createVms('admin', { name: 'unlucky', allocatePublicIp: false });
    await w.server.finishOperations(600);
    expect(await details(first!)).toMatchObject({
      status: 'Error',
      statusMessage: 'Provisioning failed: The network Default network could not be built',
    });

    // The engine is back: the next VM orders the network again and runs.
    const [second] = await w.createVms('admin', { name: 'lucky', allocatePublicIp: false });
    await w.server.finishOperations();
    expect(await details(second!)).toMatchObject({ status: 'Running' });
    // The failed VM can be deleted.
    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${first}`)).status).toBe(200);
    await w.server.finishOperations();
  });
});

describe('a VM whose build fails with a public IP', () => {
  it('keeps the address until it is deleted, and can be deleted', async () => {
    w.server.sim.faults.inject({ kind: 'fail', action: 'create', message: 'No capacity' });
    const [id] = await w.createVms('admin', { name: 'broken' });
    await w.server.finishOperations();
    expect(await details(id!)).toMatchObject({ status: 'Error' });
    const adapters = await w.call('admin', 'GET', `/networks/listNetAdapters/${id}`);
    expect((adapters.body as { data: NetworkAdapter[] }).data[0]).toMatchObject({
      status: 'Error',
      publicIp: expect.any(String),
    });
    expect(await w.call('admin', 'DELETE', `/virtualMachines/delete/${id}`)).toMatchObject({
      status: 200,
    });
    await w.server.finishOperations();
    expect((await w.call('admin', 'GET', `/virtualMachines/details/${id}`)).status).toBe(404);
  });
});

describe('limits per company and region', () => {
  it('caps the public IP addresses one company holds in a region (SNAT addresses count)', async () => {
    // The default network's SNAT address is one; two VMs with public IPs make three.
    await w.createVms('admin', { name: 'pub', numberOfInstances: 2 });
    const res = await w.call(
      'admin',
      'POST',
      '/virtualMachines/create',
      await w.order({ name: 'one-more' }),
    );
    expect(res).toMatchObject({
      status: 409,
      body: {
        message: 'The company has reached its limit of 3 public IP addresses in this region',
      },
    });
    // Without a public IP it is fine.
    expect(
      (
        await w.call(
          'admin',
          'POST',
          '/virtualMachines/create',
          await w.order({ name: 'private', allocatePublicIp: false }),
        )
      ).status,
    ).toBe(200);
    await w.server.finishOperations();
  });

  it('caps the networks one company has in a region', async () => {
    await w.createNetwork(w.custom({ name: 'c1', cidrBlock: '10.31.0.0/24' }));
    await w.createNetwork(w.custom({ name: 'c2', cidrBlock: '10.32.0.0/24' }));
    expect(
      await w.call(
        'admin',
        'POST',
        '/networks/create',
        w.custom({ name: 'c3', cidrBlock: '10.33.0.0/24' }),
      ),
    ).toMatchObject({
      status: 409,
      body: { message: 'The company has reached its limit of 3 networks in this region' },
    });
  });

  it("leaves another company's allowance alone", async () => {
    // The other company's Manager orders a VM with a public IP in the same region.
    const { token } = await signIn(w.server, 'stranger@b.test');
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/virtualMachines/create',
      headers: { authorization: `Bearer ${token}` },
      payload: await w.order({ name: 'theirs', teamId: w.other.teamId }),
    });
    expect(res.statusCode).toBe(200);
    await w.server.finishOperations();
  });
});
