import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateNetworkBody, NetworkAdapter } from '../../src/api/contract/networks';
import { limitMessages } from '../../src/api/contract/limits';
import { networks } from '../../server/db/network-schema';
import { refused, startLimitsWorld, type Company, type LimitsWorld } from './support/limits-world';

/**
 * The limits on networks and public IP addresses (a standard network's SNAT address, a VM's
 * address when ordered with one or allocated later), per company and per reseller, as a client
 * meets them. The operator's quotas stay at their defaults (50 networks, 256 addresses a region).
 */

let w: LimitsWorld;
beforeAll(async () => {
  w = await startLimitsWorld();
}, 60_000);
afterAll(() => w?.close());
afterEach(() => w.reset());

const { companyLimit, resellerLimit } = limitMessages;

/** The n-th custom network (no SNAT address) in a region. */
const customNetwork = (n: number, region: 'la' | 'ny' = 'la'): CreateNetworkBody =>
  w.custom({ name: `l2-${n}`, cidrBlock: `10.${40 + n}.0.0/24`, regionId: w.regions[region] });
/** The n-th standard network: it takes a public address for its SNAT. */
const standardNetwork = (n: number): CreateNetworkBody =>
  w.standard({
    name: `std-${n}`,
    cidrBlock: `10.${60 + n}.0.0/24`,
    dhcpStartAddress: `10.${60 + n}.0.10`,
    dhcpEndAddress: `10.${60 + n}.0.200`,
    defaultRoute: `10.${60 + n}.0.1`,
  });
const createNetwork = (company: Company, body: CreateNetworkBody) =>
  w.call(company, 'POST', '/networks/create', body);
async function holdNetwork(company: Company, body: CreateNetworkBody) {
  const res = await createNetwork(company, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: { id: number } }).data.id;
}

const liveNetworks = async (companyId?: number) =>
  (
    await w.db
      .select({ id: networks.id })
      .from(networks)
      .where(
        and(
          isNull(networks.deletedAt),
          companyId === undefined ? undefined : eq(networks.companyId, companyId),
        ),
      )
  ).length;

describe('networks', () => {
  it("stop at the company's limit in a region", async () => {
    await w.setCompanyLimits('a', [w.limit('networks', w.regions.la, 2)]);
    await holdNetwork('a', customNetwork(1));
    await holdNetwork('a', customNetwork(2));
    expect(await createNetwork('a', customNetwork(3))).toEqual(
      refused(companyLimit('networks', 2, true)),
    );
    expect((await createNetwork('a', customNetwork(3, 'ny'))).status).toBe(200);
    expect((await createNetwork('b', customNetwork(3))).status).toBe(200);
  });

  it("stop at the company's limit in all regions", async () => {
    await w.setCompanyLimits('a', [w.limit('networks', null, 2)]);
    await holdNetwork('a', customNetwork(1));
    await holdNetwork('a', customNetwork(2, 'ny'));
    expect(await createNetwork('a', customNetwork(3))).toEqual(
      refused(companyLimit('networks', 2, false)),
    );
  });

  it("stop at the reseller's limit, shared by its customers", async () => {
    await w.setResellerLimits([w.limit('networks', w.regions.la, 2)]);
    await holdNetwork('a', customNetwork(1));
    await holdNetwork('b', customNetwork(1));
    for (const company of ['a', 'b'] as const) {
      expect(await createNetwork(company, customNetwork(2))).toEqual(
        refused(resellerLimit('networks', 2, true)),
      );
    }
  });

  it("count a VM's default network, made with the first VM of the region", async () => {
    await w.setCompanyLimits('a', [w.limit('networks', w.regions.la, 0)]);
    expect(await w.create('a', 'micro')).toEqual(refused(companyLimit('networks', 0, true)));
    expect(await liveNetworks(w.companyIds.a)).toBe(0);
  });

  it('give their place back when deleted', async () => {
    await w.setCompanyLimits('a', [w.limit('networks', null, 1)]);
    const id = await holdNetwork('a', customNetwork(1));
    expect((await createNetwork('a', customNetwork(2))).status).toBe(409);
    expect((await w.call('a', 'DELETE', `/networks/delete/${id}`)).status).toBe(200);
    expect((await createNetwork('a', customNetwork(2))).status).toBe(200);
  });

  it("made at once leave exactly the company's limit", async () => {
    await w.setCompanyLimits('a', [w.limit('networks', w.regions.la, 2)]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) => createNetwork('a', customNetwork(n + 1))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer).toEqual(refused(companyLimit('networks', 2, true)));
    }
    expect(await liveNetworks(w.companyIds.a)).toBe(2);
  });

  it("made at once by two companies leave exactly the reseller's limit", async () => {
    await w.setResellerLimits([w.limit('networks', null, 3)]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        createNetwork(n % 2 ? 'b' : 'a', customNetwork(Math.floor(n / 2) + 1)),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer).toEqual(refused(resellerLimit('networks', 3, false)));
    }
    expect(await liveNetworks()).toBe(3);
  });
});

describe('public IP addresses', () => {
  const adapters = async (company: Company, vmId: number) =>
    (
      (await w.call(company, 'GET', `/networks/listNetAdapters/${vmId}`)).body as {
        data: NetworkAdapter[];
      }
    ).data;
  /** Allocates an address to the VM's primary interface (on the default network). */
  const allocate = async (company: Company, vmId: number) => {
    const [primary] = await adapters(company, vmId);
    return w.call(company, 'POST', `/networks/allocatePublicIp/${primary!.id}`);
  };

  it("stop at the company's limit in a region: SNAT, ordered and allocated addresses", async () => {
    await w.setCompanyLimits('a', [w.limit('publicIps', w.regions.la, 3)]);
    // The default network's SNAT address and the VM's: two.
    await w.hold('a', 'micro', { allocatePublicIp: true });
    const [bare] = await w.hold('a', 'micro');
    // A third, allocated to the second VM.
    expect(await allocate('a', bare!)).toMatchObject({ status: 200 });
    const full = refused(companyLimit('publicIps', 3, true));
    expect(await w.create('a', 'micro', { allocatePublicIp: true })).toEqual(full);
    expect(await createNetwork('a', standardNetwork(1))).toEqual(full);
    // What takes no address still goes.
    expect((await w.create('a', 'micro')).status).toBe(200);
    expect((await createNetwork('a', customNetwork(1))).status).toBe(200);
  });

  it("stop at the company's limit in all regions, and a refused order leaves no network", async () => {
    await w.setCompanyLimits('a', [w.limit('publicIps', null, 3)]);
    await w.hold('a', 'micro', { allocatePublicIp: true });
    // New York's default network would take the third, the VM's address a fourth.
    expect(await w.create('a', 'micro', { region: 'ny', allocatePublicIp: true })).toEqual(
      refused(companyLimit('publicIps', 3, false)),
    );
    expect(await liveNetworks(w.companyIds.a)).toBe(1);
    expect((await w.create('a', 'micro', { region: 'ny' })).status).toBe(200);
  });

  it("stop at the reseller's limit, shared by its customers", async () => {
    await w.setResellerLimits([w.limit('publicIps', w.regions.la, 3)]);
    await w.hold('a', 'micro', { allocatePublicIp: true });
    const [theirs] = await w.hold('b', 'micro');
    const full = refused(resellerLimit('publicIps', 3, true));
    expect(await allocate('b', theirs!)).toEqual(full);
    expect(await w.create('a', 'micro', { allocatePublicIp: true })).toEqual(full);
    expect((await w.create('b', 'micro', { region: 'ny', allocatePublicIp: true })).status).toBe(
      200,
    );
  });

  it('allocated at once leave exactly the limit', async () => {
    await w.setCompanyLimits('a', [w.limit('publicIps', w.regions.la, 3)]);
    const vms = await w.hold('a', 'micro', { numberOfInstances: 4 });
    // The default network's SNAT address is the first: two of the four VMs can have one.
    const answers = await Promise.all(vms.map((id) => allocate('a', id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer).toEqual(refused(companyLimit('publicIps', 3, true)));
    }
  });
});
