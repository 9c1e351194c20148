import { isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateVmBody, VmDetails } from '../../src/api/contract/vms';
import { virtualMachines } from '../../server/db/vm-schema';
import { bearer, signIn } from './support/sign-in';
import { QUICK_SIM_TIMINGS } from './support/harness';
import { startVmWorld, type VmWorld } from './support/vm-world';

/**
 * What keeps one company from taking a region's engine for itself: the VMs, vCPUs and GB of RAM it
 * may hold there. Sizes (cpu/ram, migration 0003): 1 Micro 2/4, 2 Extra Small 4/8, 3 Small 6/10,
 * 4 Medium 8/12, 5 Large 12/48; Northwind offers all of them in Los Angeles.
 */
const SIZE = { micro: 1, extraSmall: 2, small: 3, medium: 4, large: 5 } as const;
type Size = keyof typeof SIZE;

const VM_LIMIT = 'The company has reached its limit of 3 VMs in this region';
const VCPU_LIMIT = 'The company has reached its limit of 16 vCPUs in this region';
const RAM_LIMIT = 'The company has reached its limit of 52 GB of RAM in this region';

let w: VmWorld;
let northwind: number;
let strangerToken: string;
beforeAll(async () => {
  w = await startVmWorld({
    env: {
      QUOTA_VMS_PER_REGION: '3',
      QUOTA_VCPUS_PER_REGION: '16',
      QUOTA_RAM_GB_PER_REGION: '52',
    },
    // Its tests wait for the orders they place to be built, never look at one half-way.
    simTimings: QUICK_SIM_TIMINGS,
  });
  northwind = await w.providerId('sim-northwind');
  ({ token: strangerToken } = await signIn(w.server, 'stranger@b.test'));
});
afterAll(() => w.close());

/** The other company's Manager, in their team Bravo. */
const asStranger = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
  const res = await w.server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(strangerToken),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
};

// Each test starts from empty regions: every live VM is deleted after it.
afterEach(async () => {
  w.server.sim.faults.clear();
  await w.server.finishOperations();
  const live = await w.server.database.db
    .select({ id: virtualMachines.id, companyId: virtualMachines.companyId })
    .from(virtualMachines)
    .where(isNull(virtualMachines.deletedAt));
  for (const vm of live) {
    const url = `/virtualMachines/delete/${vm.id}`;
    const res =
      vm.companyId === w.companyId
        ? await w.call('admin', 'DELETE', url)
        : await asStranger('DELETE', url);
    expect(res.status).toBe(200);
  }
  await w.server.finishOperations();
});

/** One order of `count` VMs of a size, in Los Angeles at Northwind unless told otherwise. */
const order = (size: Size, overrides: Partial<CreateVmBody> = {}) =>
  w.order({
    name: size.toLowerCase(),
    configurationId: SIZE[size],
    providerId: northwind,
    allocatePublicIp: false,
    ...overrides,
  });
const create = async (size: Size, overrides: Partial<CreateVmBody> = {}) =>
  w.call('admin', 'POST', '/virtualMachines/create', await order(size, overrides));

/** VMs of these sizes, built and running; their ids in order. */
async function hold(...sizes: Size[]): Promise<number[]> {
  const ids: number[] = [];
  for (const size of sizes) ids.push(...(await w.createVms('admin', await order(size))));
  await w.server.finishOperations();
  return ids;
}

const upgrade = (id: number, size: Size) =>
  w.call('admin', 'PUT', '/virtualMachines/changeConfiguration', {
    id,
    configurationId: SIZE[size],
  });
const details = async (id: number) =>
  ((await w.call('admin', 'GET', `/virtualMachines/details/${id}`)).body as { data: VmDetails })
    .data;
const refused = (message: string) => ({ status: 409, body: { data: null, message } });

describe('creating VMs', () => {
  it('stops at the limit of VMs, and refuses a batch that would cross it', async () => {
    await hold('micro', 'micro');
    expect(await create('micro', { numberOfInstances: 2 })).toMatchObject(refused(VM_LIMIT));
    expect((await create('micro')).status).toBe(200);
    expect(await create('micro')).toMatchObject(refused(VM_LIMIT));
  });

  it('stops at the limit of vCPUs', async () => {
    // Two Mediums hold all 16 cores (24 GB): the limit itself is allowed.
    await hold('medium', 'medium');
    expect(await create('micro')).toMatchObject(refused(VCPU_LIMIT));
  });

  it('stops at the limit of RAM', async () => {
    // A Large and a Micro hold all 52 GB (14 cores).
    await hold('large', 'micro');
    expect(await create('micro')).toMatchObject(refused(RAM_LIMIT));
  });

  it('leaves the refused order without a trace', async () => {
    await hold('medium', 'medium');
    const before = await w.state();
    expect((await create('small')).status).toBe(409);
    expect(await w.state()).toBe(before);
  });

  it("counts the company's own VMs only", async () => {
    // The other company holds all 16 cores of its own in the region.
    const theirs = await asStranger(
      'POST',
      '/virtualMachines/create',
      await order('medium', { numberOfInstances: 2, teamId: w.other.teamId }),
    );
    expect(theirs.status).toBe(200);
    expect((await create('medium', { numberOfInstances: 2 })).status).toBe(200);
    expect(await create('micro')).toMatchObject(refused(VCPU_LIMIT));
  });

  it('counts each region apart', async () => {
    await hold('micro', 'micro', 'micro');
    const newYork = await w.catalog('us-nyc-1');
    const sharktech = await w.providerId('sim-sharktech');
    expect(
      (await create('micro', { ...newYork, providerId: sharktech, numberOfInstances: 3 })).status,
    ).toBe(200);
    expect(await create('micro')).toMatchObject(refused(VM_LIMIT));
  });

  it('gives back the share of a deleted VM at once', async () => {
    const [first] = await hold('medium', 'medium');
    expect(await create('micro')).toMatchObject(refused(VCPU_LIMIT));
    expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${first}`)).status).toBe(200);
    expect((await create('medium')).status).toBe(200);
  });

  it('lets exactly one of two orders at once take the last place', async () => {
    await hold('micro', 'micro');
    const answers = await Promise.all([create('micro'), create('micro')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)).toMatchObject(refused(VM_LIMIT));
    const live = await w.server.database.db
      .select({ id: virtualMachines.id })
      .from(virtualMachines)
      .where(isNull(virtualMachines.deletedAt));
    expect(live).toHaveLength(3);
  });
});

describe('upgrading a VM', () => {
  it('refuses a size whose extra cores cross the limit of vCPUs', async () => {
    // 16 cores, 26 GB: a Micro to an Extra Small would make 18 cores.
    const [micro] = await hold('micro', 'medium', 'small');
    expect(await upgrade(micro!, 'extraSmall')).toMatchObject(refused(VCPU_LIMIT));
    expect(await details(micro!)).toMatchObject({ status: 'Running', virtualMachine: { cpu: 2 } });
  });

  it('allows a size that just fits the RAM, and refuses one past it', async () => {
    const [a, b] = await hold('micro', 'micro');
    // A Large and a Micro: 14 cores, 52 GB.
    expect((await upgrade(a!, 'large')).status).toBe(200);
    await w.server.finishOperations();
    expect(await upgrade(b!, 'extraSmall')).toMatchObject(refused(RAM_LIMIT));
    expect(await details(b!)).toMatchObject({ status: 'Running', virtualMachine: { ram: 4 } });
  });

  it('counts a resize under way at its new size, and the old one when it fails', async () => {
    const [a, b] = await hold('micro', 'micro');
    w.server.sim.faults.inject({ kind: 'fail', action: 'resize', message: 'No room on the host' });
    expect((await upgrade(a!, 'large')).status).toBe(200);
    expect(await details(a!)).toMatchObject({ status: 'Resizing' });
    expect(await upgrade(b!, 'extraSmall')).toMatchObject(refused(RAM_LIMIT));
    expect(await create('micro')).toMatchObject(refused(RAM_LIMIT));

    await w.server.finishOperations();
    expect(await details(a!)).toMatchObject({ virtualMachine: { configurationId: SIZE.micro } });
    expect((await upgrade(b!, 'extraSmall')).status).toBe(200);
  });
});
