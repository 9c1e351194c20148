import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limitMessages, type LimitResource } from '../../src/api/contract/limits';
import type { VmDetails } from '../../src/api/contract/vms';
import { virtualMachines } from '../../server/db/vm-schema';
import {
  refused,
  SIZE,
  startLimitsWorld,
  type Company,
  type LimitsWorld,
  type Size,
} from './support/limits-world';

/**
 * The limits a reseller sets on a company's VMs, vCPUs and RAM (in a region or in all of them),
 * and the operator's on the reseller (shared by its customers), as a client meets them: 409 with
 * the limit's message when an order or an upgrade would cross one, and only what a change adds.
 * The operator's quotas stay at their defaults (100 VMs, 512 vCPUs, 2048 GB per region).
 */

let w: LimitsWorld;
beforeAll(async () => {
  w = await startLimitsWorld();
}, 60_000);
afterAll(() => w?.close());
afterEach(() => w.reset());

const { companyLimit, resellerLimit } = limitMessages;

const liveVms = async (companyId?: number) =>
  (
    await w.db
      .select({ id: virtualMachines.id })
      .from(virtualMachines)
      .where(
        and(
          isNull(virtualMachines.deletedAt),
          companyId === undefined ? undefined : eq(virtualMachines.companyId, companyId),
        ),
      )
  ).length;

/**
 * For each resource: the limit, what fills the room but for a little, the order that would cross
 * the limit, and the one that just fits it.
 */
const cases: { resource: LimitResource; max: number; held: Size; over: Size; fits: Size }[] = [
  // A Micro (1 VM) and one more place: a second fits, an order of two would not.
  { resource: 'vms', max: 2, held: 'micro', over: 'micro', fits: 'micro' },
  // A Medium holds 8 of 10 cores: an Extra Small (4) crosses, a Micro (2) just fits.
  { resource: 'vcpus', max: 10, held: 'medium', over: 'extraSmall', fits: 'micro' },
  // A Medium holds 12 of 16 GB: an Extra Small (8) crosses, a Micro (4) just fits.
  { resource: 'ramGb', max: 16, held: 'medium', over: 'extraSmall', fits: 'micro' },
];
/** The order that crosses: for VMs, two at once. */
const overOrder = (resource: LimitResource) => (resource === 'vms' ? { numberOfInstances: 2 } : {});

describe("a company's limit in a region", () => {
  it.each(cases)('$resource: 409 past it, the limit itself fits', async (c) => {
    await w.setCompanyLimits('a', [w.limit(c.resource, w.regions.la, c.max)]);
    await w.hold('a', c.held);
    expect(await w.create('a', c.over, overOrder(c.resource))).toEqual(
      refused(companyLimit(c.resource, c.max, true)),
    );
    // Another region, and another company, are not held to it.
    expect((await w.create('a', c.over, { ...overOrder(c.resource), region: 'ny' })).status).toBe(
      200,
    );
    expect((await w.create('b', c.over, overOrder(c.resource))).status).toBe(200);
    expect((await w.create('a', c.fits)).status).toBe(200);
  });

  it('leaves a refused order without a trace', async () => {
    await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 1)]);
    await w.hold('a', 'micro');
    const before = await w.state();
    expect((await w.create('a', 'micro')).status).toBe(409);
    expect(await w.state()).toBe(before);
  });
});

describe("a company's limit in all regions", () => {
  it.each(cases)('$resource: counts what it holds in every region', async (c) => {
    await w.setCompanyLimits('a', [w.limit(c.resource, null, c.max)]);
    await w.hold('a', c.held, { region: 'ny' });
    expect(await w.create('a', c.over, overOrder(c.resource))).toEqual(
      refused(companyLimit(c.resource, c.max, false)),
    );
    expect((await w.create('a', c.fits)).status).toBe(200);
    expect(await w.create('a', c.fits, { region: 'ny' })).toEqual(
      refused(companyLimit(c.resource, c.max, false)),
    );
  });
});

describe("the reseller's limit, shared by its customers", () => {
  it.each(cases)(
    '$resource in a region: what one company holds leaves less to the other',
    async (c) => {
      await w.setResellerLimits([w.limit(c.resource, w.regions.la, c.max)]);
      await w.hold('a', c.held);
      expect(await w.create('b', c.over, overOrder(c.resource))).toEqual(
        refused(resellerLimit(c.resource, c.max, true)),
      );
      expect((await w.create('b', c.over, { ...overOrder(c.resource), region: 'ny' })).status).toBe(
        200,
      );
      expect((await w.create('b', c.fits)).status).toBe(200);
      expect(await w.create('a', c.fits)).toEqual(refused(resellerLimit(c.resource, c.max, true)));
    },
  );

  it.each(cases)('$resource in all regions', async (c) => {
    await w.setResellerLimits([w.limit(c.resource, null, c.max)]);
    await w.hold('a', c.held, { region: 'ny' });
    expect(await w.create('b', c.over, overOrder(c.resource))).toEqual(
      refused(resellerLimit(c.resource, c.max, false)),
    );
    expect((await w.create('b', c.fits)).status).toBe(200);
  });

  it("binds each company within the company's own limit too, whichever is tighter", async () => {
    await w.setResellerLimits([w.limit('vms', null, 3)]);
    await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 1)]);
    await w.hold('a', 'micro');
    expect(await w.create('a', 'micro')).toEqual(refused(companyLimit('vms', 1, true)));
    await w.hold('b', 'micro', { numberOfInstances: 2 });
    expect(await w.create('b', 'micro')).toEqual(refused(resellerLimit('vms', 3, false)));
  });

  it("does not bind the reseller's own staff company", async () => {
    await w.setResellerLimits([w.limit('vms', null, 0)]);
    expect(await w.create('a', 'micro')).toEqual(refused(resellerLimit('vms', 0, false)));
    // Its staff's VMs are not its customers' (the staff Admin orders without a team).
    const staffOrder = await w.order('b', 'micro');
    expect((await w.asStaff('POST', '/virtualMachines/create', staffOrder)).status).toBe(200);
    expect(await liveVms(w.staffCompanyId)).toBe(1);
  });
});

describe('upgrading a VM', () => {
  const upgrade = (company: Company, id: number, size: Size) =>
    w.call(company, 'PUT', '/virtualMachines/changeConfiguration', {
      id,
      configurationId: SIZE[size],
    });
  const details = async (id: number) =>
    ((await w.call('a', 'GET', `/virtualMachines/details/${id}`)).body as { data: VmDetails }).data;

  it('counts only the cores and RAM it adds', async () => {
    // A Micro and a Small: 8 of 10 cores. A Micro to an Extra Small adds 2 (its whole new size
    // would not fit); a Small to a Medium then adds 2 more, past the limit.
    await w.setCompanyLimits('a', [w.limit('vcpus', w.regions.la, 10)]);
    const [micro] = await w.hold('a', 'micro');
    const [small] = await w.hold('a', 'small');
    expect((await upgrade('a', micro!, 'extraSmall')).status).toBe(200);
    await w.server.finishOperations();
    expect(await upgrade('a', small!, 'medium')).toEqual(refused(companyLimit('vcpus', 10, true)));
    expect(await details(small!)).toMatchObject({ status: 'Running', virtualMachine: { cpu: 6 } });
  });

  it("is held to the reseller's limit on what all its customers hold", async () => {
    await w.setResellerLimits([w.limit('ramGb', null, 20)]);
    await w.hold('b', 'small');
    const [micro] = await w.hold('a', 'micro');
    // 14 GB held; an Extra Small adds 4 more (18), a Small 6 (20), a Medium 8 (22).
    expect(await upgrade('a', micro!, 'medium')).toEqual(
      refused(resellerLimit('ramGb', 20, false)),
    );
    expect((await upgrade('a', micro!, 'small')).status).toBe(200);
  });
});

describe('what does not add', () => {
  it('a company above a lowered limit can still stop, delete, and not create', async () => {
    const ids = await w.hold('a', 'micro', { numberOfInstances: 3 });
    await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 1)]);
    expect(await w.create('a', 'micro')).toEqual(refused(companyLimit('vms', 1, true)));
    expect((await w.call('a', 'POST', `/virtualMachines/stop/${ids[0]}`)).status).toBe(200);
    await w.server.finishOperations();
    expect((await w.call('a', 'DELETE', `/virtualMachines/delete/${ids[1]}`)).status).toBe(200);
    // Still two: still no room.
    expect(await w.create('a', 'micro')).toEqual(refused(companyLimit('vms', 1, true)));
  });

  it('deleting a VM gives its room back at once', async () => {
    await w.setResellerLimits([w.limit('vcpus', w.regions.la, 16)]);
    const [first] = await w.hold('a', 'medium');
    await w.hold('b', 'medium');
    expect(await w.create('b', 'micro')).toEqual(refused(resellerLimit('vcpus', 16, true)));
    expect((await w.call('a', 'DELETE', `/virtualMachines/delete/${first}`)).status).toBe(200);
    expect((await w.create('b', 'medium')).status).toBe(200);
  });
});

describe('orders at once', () => {
  it("leave exactly the company's limit of VMs", async () => {
    await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 3)]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => w.create('a', 'micro', { name: `rush-${i}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer).toEqual(refused(companyLimit('vms', 3, true)));
    }
    expect(await liveVms(w.companyIds.a)).toBe(3);
  });

  it("from two companies, leave exactly the reseller's limit of vCPUs", async () => {
    // Micros of 2 cores against 8: four orders of the eight can pass.
    await w.setResellerLimits([w.limit('vcpus', null, 8)]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        w.create(i % 2 ? 'b' : 'a', 'micro', { name: `rush-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer).toEqual(refused(resellerLimit('vcpus', 8, false)));
    }
    expect(await liveVms()).toBe(4);
  });
});
