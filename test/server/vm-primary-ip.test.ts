import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkAdapter } from '../../src/api/contract/networks';
import type { VmDetails, VmRow } from '../../src/api/contract/vms';
import { startNetworkWorld, type NetworkWorld, type Who } from './support/network-world';
import { insertVms } from './support/vm-fixtures';

// Issue 35: the VM list and details answer the address a customer reaches the VM at.

let w: NetworkWorld;
beforeAll(async () => {
  w = await startNetworkWorld();
}, 60_000);
afterAll(() => w.close());

async function rowOf(id: number, who: Who = 'admin') {
  const res = await w.call(who, 'GET', '/virtualMachines/list?rowsPerPage=100');
  expect(res.status).toBe(200);
  return (res.body as { data: { data: VmRow[] } }).data.data.find((row) => row.id === id);
}
async function detailsOf(id: number, who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/virtualMachines/details/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: VmDetails }).data.virtualMachine.primaryIp;
}
async function adapters(id: number) {
  const res = await w.call('admin', 'GET', `/networks/listNetAdapters/${id}`);
  return (res.body as { data: NetworkAdapter[] }).data;
}

describe('the primary IP of a VM', () => {
  it('is the public IP of its primary interface, in the list and the details', async () => {
    const id = await w.runningVm('public-one');
    const [primary] = await adapters(id);
    const expected = { address: primary!.publicIp, kind: 'public' };
    expect(primary!.publicIp).toMatch(/^198\.18\.\d+\.\d+$/);
    expect((await rowOf(id))?.primaryIp).toEqual(expected);
    expect(await detailsOf(id)).toEqual(expected);
    // A team member sees it too.
    expect(await detailsOf(id, 'viewer')).toEqual(expected);
    expect((await rowOf(id, 'viewer'))?.primaryIp).toEqual(expected);
  });

  it('is the private address of the primary interface when there is no public IP', async () => {
    const id = await w.runningVm('private-one', { allocatePublicIp: false });
    const [primary] = await adapters(id);
    const expected = { address: primary!.privateIp, kind: 'private' };
    expect(primary!.privateIp).toMatch(/^10\.0\.[0-3]\.\d+$/);
    expect((await rowOf(id))?.primaryIp).toEqual(expected);
    expect(await detailsOf(id)).toEqual(expected);
  });

  it('is a public IP on another interface before a private one on the primary', async () => {
    const network = await w.createNetwork(w.standard());
    const [id] = await w.createVms('admin', { name: 'second-nic', allocatePublicIp: false });
    await w.server.finishOperations();
    await w.call('admin', 'POST', `/virtualMachines/stop/${id}`);
    await w.server.finishOperations();
    await w.call('admin', 'POST', `/virtualMachines/${id}/addNetworkInterfaces`, {
      networkId: network,
    });
    await w.server.finishOperations();
    const second = (await adapters(id!)).find((adapter) => adapter.vmnic === 2)!;
    expect(second.status).toBe('Active');
    // The interface's private address alone does not outrank the primary's.
    expect(await detailsOf(id!)).toEqual({
      address: (await adapters(id!))[0]!.privateIp,
      kind: 'private',
    });

    await w.call('admin', 'POST', `/networks/allocatePublicIp/${second.id}`);
    await w.server.finishOperations();
    const allocated = (await adapters(id!)).find((adapter) => adapter.vmnic === 2)!.publicIp;
    expect(allocated).toMatch(/^198\.18\./);
    expect(await detailsOf(id!)).toEqual({ address: allocated, kind: 'public' });
    expect((await rowOf(id!))?.primaryIp).toEqual({ address: allocated, kind: 'public' });
  });

  it('goes back to the private address once the public IP is released', async () => {
    const id = await w.runningVm('released');
    const [primary] = await adapters(id);
    await w.call('admin', 'DELETE', `/networks/releasePublicIp/${primary!.id}`);
    await w.server.finishOperations();
    expect(await detailsOf(id)).toEqual({ address: primary!.privateIp, kind: 'private' });
  });

  it('is null for a VM without an interface, and another company’s VM answers 404', async () => {
    const db = w.server.database.db;
    const [bare, theirs] = (
      await insertVms(db, [
        { companyId: w.companyId, teamId: w.alphaId, name: 'bare' },
        { companyId: w.other.companyId, teamId: w.other.teamId, name: 'theirs' },
      ])
    ).map((row) => row.id);
    expect((await rowOf(bare!))?.primaryIp).toBeNull();
    expect(await detailsOf(bare!)).toBeNull();
    expect(await w.call('admin', 'GET', `/virtualMachines/details/${theirs}`)).toMatchObject({
      status: 404,
    });
    expect(await rowOf(theirs!)).toBeUndefined();
  });
});

describe('the VM list narrowed to the VMs holding a public IP', () => {
  const list = async (who: Who, query: string) => {
    const res = await w.call(who, 'GET', `/virtualMachines/list?rowsPerPage=100${query}`);
    expect(res.status).toBe(200);
    return (res.body as { data: { data: VmRow[]; totalPages: number } }).data;
  };

  it('lists the VMs the Dashboard’s "Public IPs in use" counts, and only those', async () => {
    const withIp = await w.runningVm('filter-public');
    const withoutIp = await w.runningVm('filter-private', { allocatePublicIp: false });
    const all = await list('admin', '');
    const narrowed = await list('admin', '&publicIp=true');
    const names = narrowed.data.map((row) => row.name);
    expect(names).toContain('filter-public');
    expect(names).not.toContain('filter-private');
    expect(narrowed.data.every((row) => row.primaryIp?.kind === 'public')).toBe(true);
    expect(names).toEqual(
      all.data.filter((row) => row.primaryIp?.kind === 'public').map((row) => row.name),
    );
    // One public IP a VM here: the figure and the list agree.
    const summary = await w.call('admin', 'GET', '/dashboard/summary');
    expect((summary.body as { data: { publicIps: number } }).data.publicIps).toBe(names.length);
    // `false` and no value lift the filter.
    expect((await list('admin', '&publicIp=false')).data).toHaveLength(all.data.length);
    expect([withIp, withoutIp].every((id) => all.data.some((row) => row.id === id))).toBe(true);
  });

  it('keeps to the caller’s teams and pages by its own count', async () => {
    const viewer = await list('viewer', '&publicIp=true');
    const viewerAll = await list('viewer', '');
    expect(viewer.data.map((row) => row.name)).toEqual(
      viewerAll.data.filter((row) => row.primaryIp?.kind === 'public').map((row) => row.name),
    );
    const paged = await w.call('admin', 'GET', '/virtualMachines/list?rowsPerPage=1&publicIp=true');
    const all = await list('admin', '&publicIp=true');
    expect((paged.body as { data: { totalPages: number } }).data.totalPages).toBe(all.data.length);
  });

  it('refuses a value that is not true or false, naming the field', async () => {
    const res = await w.call('admin', 'GET', '/virtualMachines/list?publicIp=maybe');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('publicIp');
  });
});
