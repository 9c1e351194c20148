import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyLimits } from '../../src/api/contract/limits';
import type { CombinedRegion } from '../../src/api/contract/vms';
import { startLimitsWorld, type LimitsWorld } from './support/limits-world';

/**
 * `GET /limits`: every limit on the caller's company, with what it holds and what it may still add
 * (`left`), for the create screens. The operator's quotas stay at their defaults: 100 VMs, 512
 * vCPUs, 2048 GB of RAM, 50 networks and 256 public addresses in each region.
 *
 * Company A holds a Micro in Los Angeles (1 VM, 2 vCPUs, 4 GB, its default network and its SNAT
 * address); company B, of the same reseller, two Micros there (2 VMs, 4 vCPUs, 8 GB).
 */

let w: LimitsWorld;
let offered: number[];
beforeAll(async () => {
  w = await startLimitsWorld();
  await w.hold('a', 'micro');
  await w.hold('b', 'micro', { numberOfInstances: 2 });
  await setLimits();
  const regions = await w.call('a', 'GET', '/virtualMachines/listCombinedRegions');
  offered = (regions.body.data as CombinedRegion[]).map((r) => r.id).sort((x, y) => x - y);
}, 60_000);
afterAll(() => w?.close());

/**
 * A's own limits, then its reseller's: the reseller's limit of VMs in Los Angeles is tighter than
 * A's own (lowered by the operator after A's was set), and B holds two of them.
 */
async function setLimits() {
  await w.setResellerLimits([]);
  await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 10), w.limit('vcpus', null, 40)]);
  await w.setResellerLimits([w.limit('vms', w.regions.la, 4), w.limit('ramGb', null, 100)]);
}

type Entry = CompanyLimits['limits'][number];
const limitsOf = async (
  get: () => Promise<{ status: number; body: { data: CompanyLimits } }>,
): Promise<Entry[]> => {
  const res = await get();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.limits;
};
const inRegion = (entries: Entry[], regionId: number | null) =>
  entries.filter((entry) => entry.regionId === regionId);

describe('GET /limits', () => {
  it("answers the company's own limits, its reseller's and the quotas, with what is left", async () => {
    const entries = await limitsOf(() => w.call('a', 'GET', '/limits'));
    const { la } = w.regions;
    expect(inRegion(entries, null)).toEqual([
      { resource: 'vcpus', regionId: null, max: 40, used: 2, left: 38, source: 'company' },
      // 100 GB for all the reseller's customers: A holds 4, B 8.
      { resource: 'ramGb', regionId: null, max: 100, used: 4, left: 88, source: 'reseller' },
    ]);
    expect(inRegion(entries, la)).toEqual([
      // A's 10 and the quota's 100 leave it one: the reseller's 4, less B's two and A's one.
      { resource: 'vms', regionId: la, max: 100, used: 1, left: 1, source: 'quota' },
      { resource: 'vms', regionId: la, max: 10, used: 1, left: 1, source: 'company' },
      { resource: 'vms', regionId: la, max: 4, used: 1, left: 1, source: 'reseller' },
      // Its own all-regions limit binds in every region.
      { resource: 'vcpus', regionId: la, max: 512, used: 2, left: 38, source: 'quota' },
      { resource: 'ramGb', regionId: la, max: 2048, used: 4, left: 88, source: 'quota' },
      { resource: 'publicIps', regionId: la, max: 256, used: 1, left: 255, source: 'quota' },
      { resource: 'networks', regionId: la, max: 50, used: 1, left: 49, source: 'quota' },
    ]);
    expect(inRegion(entries, w.regions.ny)).toEqual([
      { resource: 'vms', regionId: w.regions.ny, max: 100, used: 0, left: 100, source: 'quota' },
      { resource: 'vcpus', regionId: w.regions.ny, max: 512, used: 0, left: 38, source: 'quota' },
      { resource: 'ramGb', regionId: w.regions.ny, max: 2048, used: 0, left: 88, source: 'quota' },
      {
        resource: 'publicIps',
        regionId: w.regions.ny,
        max: 256,
        used: 0,
        left: 256,
        source: 'quota',
      },
      { resource: 'networks', regionId: w.regions.ny, max: 50, used: 0, left: 50, source: 'quota' },
    ]);
    // The quotas of every region it can create in, five resources each, and the four limits.
    const quotaRegions = [
      ...new Set(entries.filter((e) => e.source === 'quota').map((e) => e.regionId)),
    ];
    expect(quotaRegions).toEqual(offered);
    expect(entries).toHaveLength(offered.length * 5 + 4);
  });

  it("shows another customer its own holdings against the reseller's shared limit", async () => {
    const entries = await limitsOf(() => w.call('b', 'GET', '/limits'));
    expect(entries.filter((entry) => entry.source !== 'quota')).toEqual([
      { resource: 'vms', regionId: w.regions.la, max: 4, used: 2, left: 1, source: 'reseller' },
      { resource: 'ramGb', regionId: null, max: 100, used: 8, left: 88, source: 'reseller' },
    ]);
  });

  it('never answers less than nothing left, under a limit lowered below what is held', async () => {
    await w.setCompanyLimits('a', [w.limit('vms', w.regions.la, 0)]);
    const entries = await limitsOf(() => w.call('a', 'GET', '/limits'));
    expect(inRegion(entries, w.regions.la).filter((e) => e.resource === 'vms')).toEqual([
      { resource: 'vms', regionId: w.regions.la, max: 100, used: 1, left: 0, source: 'quota' },
      { resource: 'vms', regionId: w.regions.la, max: 0, used: 1, left: 0, source: 'company' },
      { resource: 'vms', regionId: w.regions.la, max: 4, used: 1, left: 0, source: 'reseller' },
    ]);
    await setLimits();
  });

  it('answers any user of the company, and API tokens', async () => {
    const asAdmin = await limitsOf(() => w.call('a', 'GET', '/limits'));
    expect(await limitsOf(() => w.callAs('viewer', 'GET', '/limits'))).toEqual(asAdmin);
    const token = await w.callAs('viewer', 'POST', '/apiTokens/create', {
      name: 'limits',
      expiresAt: '2027-01-01T00:00:00Z',
      access: 'read',
    });
    const { secret } = token.body.data as { secret: string };
    const res = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/limits',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.limits).toEqual(asAdmin);
  });

  it("shows the reseller's staff company the quotas alone: the reseller's limits are its customers'", async () => {
    const entries = await limitsOf(() => w.asStaff('GET', '/limits'));
    expect(entries.every((entry) => entry.source === 'quota')).toBe(true);
    expect(entries).toHaveLength(offered.length * 5);
  });

  it('answers 401 without credentials', async () => {
    const res = await w.server.app.inject({ method: 'GET', url: '/api/v1/limits' });
    expect(res.statusCode).toBe(401);
  });
});
