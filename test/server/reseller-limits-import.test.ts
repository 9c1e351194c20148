import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyLimits, LimitEntry } from '../../src/api/contract/limits';
import { limitMessages } from '../../src/api/contract/limits';
import { bearer } from './support/sign-in';
import { OPERATOR_TOKEN, startLimitsWorld, type LimitsWorld } from './support/limits-world';

/**
 * The operator sets a reseller's limits with the reseller import (`limits` on its item): the whole
 * set, replaced; absent, left as it is. Its customers read them in `GET /limits`.
 */

let w: LimitsWorld;
beforeAll(async () => {
  w = await startLimitsWorld();
}, 60_000);
afterAll(() => w?.close());

/** The reseller's limits as its customer company A reads them. */
async function resellerLimitsSeen() {
  const res = await w.call('a', 'GET', '/limits');
  expect(res.status).toBe(200);
  return (res.body.data as CompanyLimits).limits
    .filter((entry) => entry.source === 'reseller')
    .map(({ resource, regionId, max }) => ({ resource, regionId, max }));
}

async function imported(limits?: unknown) {
  const res = await w.importReseller(limits);
  expect(res.statusCode, res.body).toBe(200);
  const { created, updated, items } = res.json().data;
  expect(items).toEqual([{ externalId: w.reseller.externalId, id: w.reseller.id }]);
  return { created, updated };
}

describe("a reseller's limits by import", () => {
  it('are set, and the same file again changes nothing', async () => {
    const limits: LimitEntry[] = [
      { resource: 'vcpus', regionId: null, max: 64 },
      { resource: 'vms', regionId: w.regions.la, max: 10 },
    ];
    expect(await imported(limits)).toEqual({ created: 0, updated: 1 });
    expect(await resellerLimitsSeen()).toEqual([
      { resource: 'vms', regionId: w.regions.la, max: 10 },
      { resource: 'vcpus', regionId: null, max: 64 },
    ]);
    expect(await imported([...limits].reverse())).toEqual({ created: 0, updated: 0 });
  });

  it('are replaced whole by the next set', async () => {
    expect(await imported([{ resource: 'ramGb', regionId: w.regions.ny, max: 100 }])).toEqual({
      created: 0,
      updated: 1,
    });
    expect(await resellerLimitsSeen()).toEqual([
      { resource: 'ramGb', regionId: w.regions.ny, max: 100 },
    ]);
  });

  it('are left as they are by an item without them, or with null', async () => {
    expect(await imported()).toEqual({ created: 0, updated: 0 });
    expect(await imported(null)).toEqual({ created: 0, updated: 0 });
    expect(await resellerLimitsSeen()).toEqual([
      { resource: 'ramGb', regionId: w.regions.ny, max: 100 },
    ]);
  });

  it('are lifted by an empty set', async () => {
    expect(await imported([])).toEqual({ created: 0, updated: 1 });
    expect(await resellerLimitsSeen()).toEqual([]);
  });

  it('come with a new reseller', async () => {
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/imports/reseller',
      headers: bearer(OPERATOR_TOKEN),
      payload: {
        items: [
          {
            externalId: 'r-limited',
            distributerExternalId: w.distributor.externalId,
            name: 'Limited Reseller',
            email: 'ops@limited.test',
            limits: [{ resource: 'networks', regionId: null, max: 7 }],
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ created: 1, updated: 0 });
    await w.server.settled();
  });
});

describe('bad limits in an import', () => {
  it('are reported with the item and the field, and nothing is written', async () => {
    await imported([{ resource: 'vms', regionId: null, max: 5 }]);
    const item = (n: number, limits: unknown) => ({
      externalId: `r-bad-${n}`,
      distributerExternalId: w.distributor.externalId,
      name: `Bad ${n}`,
      email: `bad${n}@resellers.test`,
      limits,
    });
    const res = await w.server.app.inject({
      method: 'POST',
      url: '/api/v1/imports/reseller',
      headers: bearer(OPERATOR_TOKEN),
      payload: {
        items: [
          // A good item: written only if the whole file is.
          {
            externalId: w.reseller.externalId,
            distributerExternalId: w.distributor.externalId,
            name: w.reseller.name,
            email: w.reseller.email,
            limits: [],
          },
          item(1, [
            { resource: 'vms', regionId: w.regions.la, max: 5 },
            { resource: 'vms', regionId: w.regions.la, max: 6 },
            { resource: 'vcpus', regionId: 999_999, max: 5 },
          ]),
          item(2, [
            { resource: 'vms', regionId: null, max: 1_000_001 },
            { resource: 'disks', regionId: null, max: 5 },
          ]),
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      data: null,
      message: `items.1.limits.1: ${limitMessages.duplicate}`,
      errors: [
        { index: 1, field: 'limits.1', message: limitMessages.duplicate },
        { index: 1, field: 'limits.2.regionId', message: limitMessages.regionNotFound },
        { index: 2, field: 'limits.0.max', message: limitMessages.maxRange },
        { index: 2, field: 'limits.1.resource', message: expect.any(String) },
      ],
    });
    expect(await resellerLimitsSeen()).toEqual([{ resource: 'vms', regionId: null, max: 5 }]);
  });
});
