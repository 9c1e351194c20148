import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { limitMessages, type LimitEntry } from '../../src/api/contract/limits';
import { resellerMessages } from '../../src/api/contract/reseller';
import { resellerLimits } from '../../server/db/limit-schema';
import { bearer, signIn } from './support/sign-in';
import { catalogIds } from './support/vm-fixtures';
import { people, startResellerWorld, type ResellerWorld, type Who } from './support/reseller-world';

/**
 * `PUT /reseller/companies/limits/:id`: the reseller's staff sets a customer's limits, each within
 * the reseller's own, and reads them back with what the company holds in its details. Acme 2
 * holds, in Los Angeles, 3 VMs (20 vCPUs, 62 GB) and 2 public addresses (support/reseller-world).
 */

let w: ResellerWorld;
let la: number;
let ny: number;
beforeAll(async () => {
  w = await startResellerWorld();
  la = (await catalogIds(w.db)).regionId;
  ny = (await catalogIds(w.db, 'us-nyc-1')).regionId;
}, 60_000);
afterAll(() => w?.close());

const acme = () => w.customers['Acme 2'];
const url = (id: number) => `/reseller/companies/limits/${id}`;
const sessions = new Map<Who, string>();
/** The PUT as `who` (a session, signed in once) or with an API token's secret. */
async function put(id: number, limits: unknown, who: Who | { secret: string } = 'staff') {
  let secret: string;
  if (typeof who === 'string') {
    if (!sessions.has(who)) sessions.set(who, (await signIn(w.server, people[who])).token);
    secret = sessions.get(who)!;
  } else {
    secret = who.secret;
  }
  const res = await w.server.app.inject({
    method: 'PUT',
    url: `/api/v1${url(id)}`,
    headers: bearer(secret),
    payload: { limits },
  });
  return { status: res.statusCode, body: res.json() };
}
const details = async (id: number, who: Who = 'staff') =>
  (await w.call(who, 'GET', `/reseller/companies/details/${id}`)).body.data as {
    limits: unknown[];
  };
const SAVED = { status: 200, body: { data: null, message: limitMessages.saved } };
const NOT_THERE = { status: 404, body: { data: null, message: 'Not found' } };
const NO_CUSTOMER = {
  status: 404,
  body: { data: null, message: resellerMessages.customerNotFound },
};

/** The reseller's own limits, as the operator's import writes them. */
async function setResellerLimits(limits: LimitEntry[]) {
  await w.db.delete(resellerLimits);
  if (limits.length === 0) return;
  await w.db
    .insert(resellerLimits)
    .values(limits.map((limit) => ({ resellerId: w.resellers.a.resellerId, ...limit })));
}

beforeEach(async () => {
  await setResellerLimits([]);
  expect(await put(acme(), [])).toEqual(SAVED);
});

describe('setting a customer’s limits', () => {
  it('saves the set, and the details show each limit with what the company holds', async () => {
    expect(
      await put(acme(), [
        { resource: 'publicIps', regionId: la, max: 4 },
        { resource: 'vms', regionId: la, max: 5 },
        { resource: 'vcpus', regionId: null, max: 40 },
        { resource: 'snapshots', regionId: null, max: 10 },
        { resource: 'vms', regionId: ny, max: 2 },
      ]),
    ).toEqual(SAVED);
    // By resource, all regions before each region; held in all regions for an all-regions one.
    expect((await details(acme())).limits).toEqual([
      { resource: 'vms', regionId: la, max: 5, used: 3 },
      { resource: 'vms', regionId: ny, max: 2, used: 0 },
      { resource: 'vcpus', regionId: null, max: 40, used: 20 },
      { resource: 'publicIps', regionId: la, max: 4, used: 2 },
      { resource: 'snapshots', regionId: null, max: 10, used: 0 },
    ]);
  });

  it('replaces the whole set, and an empty one lifts every limit', async () => {
    await put(acme(), [
      { resource: 'vms', regionId: la, max: 5 },
      { resource: 'ramGb', regionId: null, max: 100 },
    ]);
    expect(await put(acme(), [{ resource: 'ramGb', regionId: null, max: 64 }])).toEqual(SAVED);
    expect((await details(acme())).limits).toEqual([
      { resource: 'ramGb', regionId: null, max: 64, used: 62 },
    ]);
    expect(await put(acme(), [])).toEqual(SAVED);
    expect((await details(acme())).limits).toEqual([]);
  });

  it("accepts a limit below what the company already holds, and up to the reseller's own", async () => {
    await setResellerLimits([
      { resource: 'vms', regionId: la, max: 8 },
      { resource: 'vms', regionId: null, max: 10 },
    ]);
    expect(
      await put(acme(), [
        { resource: 'vms', regionId: la, max: 8 },
        { resource: 'vms', regionId: null, max: 1 },
        // The reseller has no limit on networks.
        { resource: 'networks', regionId: la, max: 1_000_000 },
      ]),
    ).toEqual(SAVED);
  });

  it("another of the reseller's staff sets them too; each customer has its own", async () => {
    expect(
      await put(w.customers.Borealis, [{ resource: 'vms', regionId: null, max: 9 }], 'clerk'),
    ).toEqual(SAVED);
    expect((await details(w.customers.Borealis)).limits).toEqual([
      { resource: 'vms', regionId: null, max: 9, used: 4 },
    ]);
    expect((await details(acme())).limits).toEqual([]);
  });
});

describe('a set that cannot be saved answers 400 naming each entry, and keeps the last', () => {
  const kept = () => [{ resource: 'vms', regionId: la, max: 5, used: 3 }];
  beforeEach(async () => {
    expect(await put(acme(), [{ resource: 'vms', regionId: la, max: 5 }])).toEqual(SAVED);
  });
  const expectRefused = async (limits: unknown, errors: { field: string; message: string }[]) => {
    const res = await put(acme(), limits);
    expect(res).toEqual({
      status: 400,
      body: { data: null, message: `${errors[0]!.field}: ${errors[0]!.message}`, errors },
    });
    expect((await details(acme())).limits).toEqual(kept());
  };

  it('two limits of a resource in one region, or in all regions', async () => {
    await expectRefused(
      [
        { resource: 'vms', regionId: la, max: 5 },
        { resource: 'vcpus', regionId: null, max: 5 },
        { resource: 'vms', regionId: la, max: 6 },
        { resource: 'vcpus', regionId: null, max: 7 },
      ],
      [
        { field: 'limits.2', message: limitMessages.duplicate },
        { field: 'limits.3', message: limitMessages.duplicate },
      ],
    );
  });

  it('a region that does not exist', async () => {
    await expectRefused(
      [
        { resource: 'vms', regionId: la, max: 5 },
        { resource: 'vms', regionId: 999_999, max: 5 },
      ],
      [{ field: 'limits.1.regionId', message: limitMessages.regionNotFound }],
    );
  });

  it("a limit above the reseller's own in the region", async () => {
    await setResellerLimits([{ resource: 'vcpus', regionId: la, max: 32 }]);
    await expectRefused(
      [
        { resource: 'vcpus', regionId: ny, max: 64 },
        { resource: 'vcpus', regionId: la, max: 33 },
      ],
      [{ field: 'limits.1.max', message: limitMessages.aboveResellerLimit('vcpus', 32, true) }],
    );
  });

  it("a limit above the reseller's own in all regions, for a region or for all of them", async () => {
    await setResellerLimits([
      { resource: 'ramGb', regionId: null, max: 100 },
      { resource: 'ramGb', regionId: la, max: 80 },
    ]);
    await expectRefused(
      [
        { resource: 'ramGb', regionId: null, max: 101 },
        { resource: 'ramGb', regionId: ny, max: 100 },
        { resource: 'ramGb', regionId: la, max: 90 },
        { resource: 'ramGb', regionId: la, max: 200 },
      ],
      [
        { field: 'limits.0.max', message: limitMessages.aboveResellerLimit('ramGb', 100, false) },
        // The tightest of the two it exceeds.
        { field: 'limits.2.max', message: limitMessages.aboveResellerLimit('ramGb', 80, true) },
        { field: 'limits.3', message: limitMessages.duplicate },
        { field: 'limits.3.max', message: limitMessages.aboveResellerLimit('ramGb', 80, true) },
      ],
    );
  });

  it('a malformed entry, named by the schema', async () => {
    const res = await put(acme(), [
      { resource: 'vms', regionId: la, max: -1 },
      { resource: 'disks', regionId: la, max: 1 },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'limits.0.max', message: limitMessages.maxRange },
      { field: 'limits.1.resource', message: expect.any(String) },
    ]);
    expect((await details(acme())).limits).toEqual(kept());
  });
});

describe('who may set them', () => {
  const oneLimit = [{ resource: 'vms', regionId: null, max: 1 }];

  it.each([
    ["another reseller's customer", () => w.otherCustomer],
    ["the reseller's own staff company", () => w.resellers.a.staffCompanyId],
    ['an unknown company', () => 2_000_000_000],
  ])('%s: 404 Customer not found', async (_label, id) => {
    expect(await put(id(), oneLimit)).toEqual(NO_CUSTOMER);
  });

  it("another reseller's staff: 404 for this reseller's customer, nothing saved", async () => {
    expect(await put(acme(), oneLimit, 'staffB')).toEqual(NO_CUSTOMER);
    expect((await details(acme())).limits).toEqual([]);
  });

  it.each(['customerAdmin', 'customerUser', 'misflagged'] as const)(
    '%s: the 404 of a path that is not there, on its own company too',
    async (who) => {
      expect(await put(acme(), oneLimit, who)).toEqual(NOT_THERE);
      expect(await put(w.customers.Borealis, oneLimit, who)).toEqual(NOT_THERE);
      expect((await details(acme())).limits).toEqual([]);
    },
  );

  it("a staff user's read token: 403, a read-write token saves", async () => {
    const token = async (access: 'read' | 'readWrite') => {
      const res = await w.call('staff', 'POST', '/apiTokens/create', {
        name: `limits ${access}`,
        expiresAt: '2027-01-01T00:00:00Z',
        access,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { secret: (res.body.data as { secret: string }).secret };
    };
    expect(await put(acme(), oneLimit, await token('read'))).toEqual({
      status: 403,
      body: { data: null, message: apiTokenMessages.readOnly },
    });
    expect((await details(acme())).limits).toEqual([]);
    expect(await put(acme(), oneLimit, await token('readWrite'))).toEqual(SAVED);
  });
});
