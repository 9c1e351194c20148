import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageCsvColumns, usageMessages } from '../../src/api/contract/usage';
import { companies } from '../../server/db/schema';
import { publicIpPeriods, vmInterfaces } from '../../server/db/network-schema';
import { snapshotPeriods, vmSnapshots } from '../../server/db/self-service-schema';
import { simSnapshots } from '../../server/providers/sim/schema';
import { virtualMachines, vmRunPeriods, vmSizePeriods } from '../../server/db/vm-schema';
import { CUSTOMER_NAME, IDLE_NAME, startUsageWorld, type UsageWorld } from './support/usage-world';
import { insertVms } from './support/vm-fixtures';

/**
 * Usage for billing against a month computed by hand. The customer's VM `web` lives through
 * November and into December: created, resized, its company suspended and resumed (through the
 * real endpoints, the clock moved to each moment), then deleted; it and the company's network
 * hold public addresses, and it has snapshots taken (one fails), deleted on their own and with
 * it. In December a second VM, `db`, runs, shuts down and holds an address for a while. Every
 * figure below is worked out in the comments from these moments (UTC):
 *
 *   Nov 14 09:00  web created, Small (6 vCPU, 10 GB, 180 GB), with a public address (Y); the
 *                 company's first VM makes its default network, whose SNAT address (X) it holds
 *   Nov 16 09:00  a snapshot of web, `before-resize`: 10 GB (its engine says)
 *   Nov 16 10:00  a snapshot of web, `broken`: its take fails
 *   Nov 20 09:00  web resized to Medium (8 vCPU, 12 GB, 240 GB): Resizing, then Running again
 *   Nov 25 12:00  the reseller suspends the company: web stops
 *   Nov 26 00:00  (a look at the month in progress)
 *   Nov 27 12:00  the reseller resumes it: web starts again
 *   Nov 28 00:00  a snapshot of web, `nightly`: 2.5 GB
 *   Dec  1 12:00  `nightly` deleted
 *   Dec  2 00:00  db created, Extra Small (4 vCPU, 8 GB, 120 GB), without an address
 *   Dec  2 06:00  an address (Z) allocated to db
 *   Dec  2 12:00  db's guest shuts itself down (seen when its details are read)
 *   Dec  2 18:00  Z released
 *   Dec  3 06:00  web deleted, and its snapshots with it
 *   Dec  5 00:00  now, for the answers
 *
 * The engine takes a few seconds for each task (TEST_SIM_TIMINGS), so a period begins or ends up to
 * a few seconds after its moment: well under the half minute that would change a whole minute.
 */

let w: UsageWorld;
let web: number;
let db: number;
let network: number;
const snapshots = { beforeResize: 0, broken: 0, nightly: 0 };
const GB = 2 ** 30;

type Json = Record<string, unknown>;
type UsageAnswer = {
  month: string;
  from: string;
  to: string;
  companies: (Json & {
    companyId: number;
    name: string;
    vms: Json[];
    publicIps: Json[];
    snapshots: Json[];
    totals: Record<string, number>;
  })[];
};

/** The month's usage as the reseller's staff user reads it. */
async function usage(query: string, who: Parameters<UsageWorld['asStaff']>[0] = 'staff') {
  const res = await w.asStaff(who, 'GET', `/reseller/usage?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json().data as UsageAnswer;
}

const customerOf = (answer: UsageAnswer) =>
  answer.companies.find((company) => company.companyId === w.companyId)!;

/** The Customers list's and the customer page's `vmHoursThisMonth`. */
async function listedHours() {
  const list = await w.asStaff('staff', 'GET', '/reseller/companies/list?rowsPerPage=100');
  const details = await w.asStaff('staff', 'GET', `/reseller/companies/details/${w.companyId}`);
  const rows = list.json().data.data as { id: number; vmHoursThisMonth: number }[];
  return {
    list: Object.fromEntries(rows.map((row) => [row.id, row.vmHoursThisMonth])),
    details: details.json().data.vmHoursThisMonth as number,
  };
}

/** As the customer's Admin, whose session lasts hours, not the weeks the clock moves through. */
async function asAdmin(method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: object) {
  await w.signInAgain();
  const res = await w.call('admin', method, url, payload);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

const primaryInterfaceOf = async (vmId: number) => {
  const [row] = await w.server.database.db
    .select({ id: vmInterfaces.id })
    .from(vmInterfaces)
    .where(eq(vmInterfaces.vmId, vmId));
  return row!.id;
};

/**
 * Takes a snapshot of the VM, which its engine finishes holding `sizeBytes` (the sim's own sizes
 * are arbitrary), or fails to take.
 */
async function takeSnapshot(vmId: number, name: string, sizeBytes: number | 'fails') {
  if (sizeBytes === 'fails') {
    w.server.sim.faults.inject({ kind: 'fail', action: 'snapshot', message: 'Disk is busy' });
  }
  const res = await asAdmin('POST', `/virtualMachines/snapshots/create/${vmId}`, { name });
  const id = (res.body as { data: { id: number } }).data.id;
  if (sizeBytes !== 'fails') {
    // The take is submitted: the engine's snapshot is there, being taken, and ends at this size.
    await w.server.reconciler.drain();
    const dbh = w.server.database.db;
    const [row] = await dbh
      .select({ ref: vmSnapshots.providerRef })
      .from(vmSnapshots)
      .where(eq(vmSnapshots.id, id));
    const finished = await dbh
      .update(simSnapshots)
      .set({ state: 'available', sizeBytes, stateEndsAt: null })
      .where(eq(simSnapshots.ref, row!.ref!))
      .returning({ ref: simSnapshots.ref });
    expect(finished).toHaveLength(1);
  }
  await w.server.finishOperations();
  w.server.sim.faults.clear();
  return id;
}

type Listed = Awaited<ReturnType<typeof listedHours>>;
/** Read on Nov 26 00:00, the month in progress. */
let inProgress: { usage: UsageAnswer; listed: Listed };
/** Read on Dec 5 00:00: November closed, December in progress. */
let onDec5: { november: UsageAnswer; december: UsageAnswer; listed: Listed };

beforeAll(async () => {
  w = await startUsageWorld('2026-11-14T09:00:00Z');
  web = (await w.createVms('admin', { name: 'web', configurationId: 3 }))[0]!;
  await w.server.finishOperations();

  w.moveTo('2026-11-16T09:00:00Z');
  snapshots.beforeResize = await takeSnapshot(web, 'before-resize', 10 * GB);
  w.moveTo('2026-11-16T10:00:00Z');
  snapshots.broken = await takeSnapshot(web, 'broken', 'fails');

  w.moveTo('2026-11-20T09:00:00Z');
  await asAdmin('PUT', '/virtualMachines/changeConfiguration', { id: web, configurationId: 4 });
  await w.server.finishOperations();

  w.moveTo('2026-11-25T12:00:00Z');
  expect(
    (await w.asStaff('staff', 'POST', `/reseller/companies/suspend/${w.companyId}`)).statusCode,
  ).toBe(200);
  await w.server.finishOperations();

  w.moveTo('2026-11-26T00:00:00Z');
  inProgress = { usage: await usage('month=2026-11'), listed: await listedHours() };

  w.moveTo('2026-11-27T12:00:00Z');
  expect(
    (await w.asStaff('staff', 'POST', `/reseller/companies/resume/${w.companyId}`)).statusCode,
  ).toBe(200);
  await w.server.finishOperations();

  w.moveTo('2026-11-28T00:00:00Z');
  snapshots.nightly = await takeSnapshot(web, 'nightly', 2.5 * GB);

  w.moveTo('2026-12-01T12:00:00Z');
  await asAdmin('DELETE', `/virtualMachines/snapshots/delete/${snapshots.nightly}`);
  await w.server.finishOperations();

  w.moveTo('2026-12-02T00:00:00Z');
  await w.signInAgain();
  db = (
    await w.createVms('admin', { name: 'db', configurationId: 2, allocatePublicIp: false })
  )[0]!;
  await w.server.finishOperations();

  w.moveTo('2026-12-02T06:00:00Z');
  const dbInterface = await primaryInterfaceOf(db);
  await asAdmin('POST', `/networks/allocatePublicIp/${dbInterface}`);
  await w.server.finishOperations();

  w.moveTo('2026-12-02T12:00:00Z');
  const [dbRow] = await w.server.database.db
    .select({ ref: virtualMachines.providerRef })
    .from(virtualMachines)
    .where(eq(virtualMachines.id, db));
  await w.server.sim.guestShutdown(dbRow!.ref!);
  const seen = await asAdmin('GET', `/virtualMachines/details/${db}`);
  expect(seen.body.data.status).toBe('Shutoff');

  w.moveTo('2026-12-02T18:00:00Z');
  await asAdmin('DELETE', `/networks/releasePublicIp/${dbInterface}`);
  await w.server.finishOperations();

  w.moveTo('2026-12-03T06:00:00Z');
  await asAdmin('DELETE', `/virtualMachines/delete/${web}`);
  await w.server.finishOperations();

  w.moveTo('2026-12-05T00:00:00Z');
  const [net] = await w.server.database.db
    .select({ id: publicIpPeriods.networkId })
    .from(publicIpPeriods)
    .where(eq(publicIpPeriods.companyId, w.companyId));
  network = net!.id!;
  onDec5 = {
    november: await usage('month=2026-11'),
    december: await usage('month=2026-12'),
    listed: await listedHours(),
  };
}, 120_000);
afterAll(() => w?.close());

/** A moment a few seconds after the whole minute the engine's task began at. */
const secondsAfter = (minute: string) =>
  expect.stringMatching(new RegExp(`^${minute}:[0-2]\\d\\.`));

const LA = 'Los Angeles';
const X = '198.18.0.1'; // the network's SNAT address, the region's first
const Y = '198.18.0.2'; // web's
const Z = '198.18.0.3'; // db's, while web still holds Y

describe('a closed month (November, read in December)', () => {
  let november: UsageAnswer;
  beforeAll(() => {
    november = onDec5.november;
  });

  it('lists the reseller’s customers in name order, never its staff company', () => {
    expect(november).toMatchObject({
      month: '2026-11',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
    });
    expect(november.companies.map((company) => company.name)).toEqual([IDLE_NAME, CUSTOMER_NAME]);
  });

  it('answers a customer with nothing to bill with zeros', () => {
    expect(november.companies[0]).toEqual({
      companyId: w.idleCompanyId,
      externalId: 'customer:idle',
      name: IDLE_NAME,
      vms: [],
      publicIps: [],
      snapshots: [],
      totals: {
        vmExistedHours: 0,
        vmRanHours: 0,
        vcpuRanHours: 0,
        ramGbRanHours: 0,
        publicIpHours: 0,
        snapshotGbHours: 0,
      },
    });
  });

  it('counts each size period: when the VM existed and, of that, when it ran', () => {
    const { vms } = customerOf(november);
    const web1 = { vmId: web, vmName: 'web', vmDeleted: true, region: LA };
    expect(vms).toEqual([
      {
        ...web1,
        configurationId: 3,
        size: 'Small',
        vcpus: 6,
        ramGb: 10,
        diskGb: 180,
        // Nov 14 09:00 -> Nov 20 09:00 (the resize took effect): 6 days = 144 h = 8640 min.
        from: '2026-11-14T09:00:00.000Z',
        to: secondsAfter('2026-11-20T09:00'),
        existedMinutes: 8640,
        // It ran from provisioned (09:00 and seconds) until the resize began (09:00): 8640 min.
        ranMinutes: 8640,
        existedHours: 144,
        ranHours: 144,
      },
      {
        ...web1,
        configurationId: 4,
        size: 'Medium',
        vcpus: 8,
        ramGb: 12,
        diskGb: 240,
        // Nov 20 09:00 -> the month's end, Dec 1 00:00: 10 days 15 h = 255 h = 15300 min.
        from: secondsAfter('2026-11-20T09:00'),
        to: '2026-12-01T00:00:00.000Z',
        existedMinutes: 15300,
        // Stopped by the suspension from Nov 25 12:00 to Nov 27 12:00: it ran Nov 20 09:00 ->
        // Nov 25 12:00 (123 h) and Nov 27 12:00 -> Dec 1 00:00 (84 h): 207 h = 12420 min.
        ranMinutes: 12420,
        existedHours: 255,
        ranHours: 207,
      },
    ]);
    // One size ends where the next begins.
    expect(vms[0]!.to).toBe(vms[1]!.from);
  });

  it('counts the public addresses from allocation to release', () => {
    // Both from Nov 14 09:00 to the month's end: 16 days 15 h = 399 h = 23940 min.
    const held = {
      region: LA,
      from: '2026-11-14T09:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      minutes: 23940,
      hours: 399,
    };
    expect(customerOf(november).publicIps).toEqual([
      { ...held, address: X, vmId: null, networkId: network },
      { ...held, address: Y, vmId: web, networkId: null },
    ]);
  });

  it('counts each snapshot held, at its size, from available to deleted; not a failed one', () => {
    const ofWeb = { vmId: web, vmName: 'web', vmDeleted: true, region: LA };
    expect(customerOf(november).snapshots).toEqual([
      {
        snapshotId: snapshots.beforeResize,
        snapshotName: 'before-resize',
        ...ofWeb,
        sizeBytes: 10 * GB,
        sizeGb: 10,
        // Available seconds after Nov 16 09:00, held past the month's end (until web's
        // deletion): 14 days 15 h = 351 h = 21060 min; × 10 GB = 3510 GB-hours.
        from: secondsAfter('2026-11-16T09:00'),
        to: '2026-12-01T00:00:00.000Z',
        minutes: 21060,
        hours: 351,
        gbHours: 3510,
      },
      {
        snapshotId: snapshots.nightly,
        snapshotName: 'nightly',
        ...ofWeb,
        sizeBytes: 2.5 * GB,
        sizeGb: 2.5,
        // Nov 28 00:00 -> the month's end (deleted on Dec 1 12:00): 72 h = 4320 min; × 2.5 GB.
        from: secondsAfter('2026-11-28T00:00'),
        to: '2026-12-01T00:00:00.000Z',
        minutes: 4320,
        hours: 72,
        gbHours: 180,
      },
    ]);
  });

  it('totals the company from minutes', () => {
    expect(customerOf(november).totals).toEqual({
      // 8640 + 15300 = 23940 min = 399 h
      vmExistedHours: 399,
      // 8640 + 12420 = 21060 min = 351 h
      vmRanHours: 351,
      // 8640 × 6 + 12420 × 8 = 151200 vCPU-min = 2520 h
      vcpuRanHours: 2520,
      // 8640 × 10 + 12420 × 12 = 235440 GB-min = 3924 h
      ramGbRanHours: 3924,
      // 23940 × 2 = 47880 min = 798 h
      publicIpHours: 798,
      // (21060 × 10 + 4320 × 2.5) GB-min = 221400 GB-min = 3690 GB-h
      snapshotGbHours: 3690,
    });
  });

  it('answers the same later: a closed month does not change', async () => {
    w.clock.advance(3 * 24 * 3600_000);
    expect(await usage('month=2026-11')).toEqual(november);
  });

  it('answers one customer alone with companyId', async () => {
    const one = await usage(`month=2026-11&companyId=${w.companyId}`);
    expect(one.companies).toEqual([customerOf(november)]);
  });
});

describe('the month in progress', () => {
  it('counted up to now (Nov 26 00:00), while the company was suspended', () => {
    const { usage: answer } = inProgress;
    expect(answer).toMatchObject({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-26T00:00:00.000Z',
    });
    const customer = customerOf(answer);
    expect(customer.vms.map((vm) => [vm.size, vm.to, vm.existedMinutes, vm.ranMinutes])).toEqual([
      ['Small', secondsAfter('2026-11-20T09:00'), 8640, 8640],
      // Nov 20 09:00 -> now: 5 days 15 h = 135 h = 8100 min; ran to Nov 25 12:00: 123 h = 7380 min.
      ['Medium', '2026-11-26T00:00:00.000Z', 8100, 7380],
    ]);
    // Not deleted yet.
    expect(customer.vms.map((vm) => vm.vmDeleted)).toEqual([false, false]);
    expect(customer.totals).toEqual({
      vmExistedHours: 279, // 144 + 135
      vmRanHours: 267, // 144 + 123
      vcpuRanHours: 1848, // 144 × 6 + 123 × 8
      ramGbRanHours: 2916, // 144 × 10 + 123 × 12
      publicIpHours: 558, // 2 × (Nov 14 09:00 -> Nov 26 00:00: 279 h)
      snapshotGbHours: 2310, // before-resize: Nov 16 09:00 -> now, 231 h × 10 GB
    });
    expect(customer.snapshots.map((row) => [row.snapshotName, row.to, row.minutes])).toEqual([
      ['before-resize', '2026-11-26T00:00:00.000Z', 13860],
    ]);
  });

  it('is what the Customers list and the customer’s page show as this month’s VM-hours', () => {
    expect(inProgress.listed).toEqual({
      list: { [w.idleCompanyId]: 0, [w.companyId]: 279 },
      details: 279,
    });
  });
});

describe('December, read on Dec 5: a period across the month boundary, a deletion', () => {
  let december: UsageAnswer;
  beforeAll(() => {
    december = onDec5.december;
  });

  it('counts the rest of the Medium period from the month’s start, and db up to now', () => {
    expect(december).toMatchObject({
      from: '2026-12-01T00:00:00.000Z',
      to: '2026-12-05T00:00:00.000Z',
    });
    expect(customerOf(december).vms).toEqual([
      {
        vmId: db,
        vmName: 'db',
        vmDeleted: false,
        region: LA,
        configurationId: 2,
        size: 'Extra Small',
        vcpus: 4,
        ramGb: 8,
        diskGb: 120,
        // Dec 2 00:00 -> now (Dec 5 00:00): 72 h = 4320 min.
        from: '2026-12-02T00:00:00.000Z',
        to: '2026-12-05T00:00:00.000Z',
        existedMinutes: 4320,
        // Ran from provisioned to its shutdown at 12:00, and not since: 12 h = 720 min.
        ranMinutes: 720,
        existedHours: 72,
        ranHours: 12,
      },
      {
        vmId: web,
        vmName: 'web',
        vmDeleted: true,
        region: LA,
        configurationId: 4,
        size: 'Medium',
        vcpus: 8,
        ramGb: 12,
        diskGb: 240,
        // Dec 1 00:00 -> deleted on Dec 3 06:00 (running until then): 54 h = 3240 min.
        from: '2026-12-01T00:00:00.000Z',
        to: secondsAfter('2026-12-03T06:00'),
        existedMinutes: 3240,
        ranMinutes: 3240,
        existedHours: 54,
        ranHours: 54,
      },
    ]);
  });

  it('counts the addresses: the network’s still held, web’s released with it, db’s for 12 h', () => {
    expect(customerOf(december).publicIps).toEqual([
      // Dec 1 -> now: 96 h = 5760 min.
      {
        address: X,
        region: LA,
        vmId: null,
        networkId: network,
        from: '2026-12-01T00:00:00.000Z',
        to: '2026-12-05T00:00:00.000Z',
        minutes: 5760,
        hours: 96,
      },
      // Dec 1 -> web's deletion, Dec 3 06:00: 54 h = 3240 min.
      {
        address: Y,
        region: LA,
        vmId: web,
        networkId: null,
        from: '2026-12-01T00:00:00.000Z',
        to: secondsAfter('2026-12-03T06:00'),
        minutes: 3240,
        hours: 54,
      },
      // Dec 2 06:00 -> released at 18:00: 720 min.
      {
        address: Z,
        region: LA,
        vmId: db,
        networkId: null,
        from: '2026-12-02T06:00:00.000Z',
        to: secondsAfter('2026-12-02T18:00'),
        minutes: 720,
        hours: 12,
      },
    ]);
  });

  it('totals December and shows the same VM-hours in the Customers list', () => {
    expect(customerOf(december).totals).toEqual({
      vmExistedHours: 126, // 72 + 54
      vmRanHours: 66, // 12 + 54
      vcpuRanHours: 480, // 12 × 4 + 54 × 8
      ramGbRanHours: 744, // 12 × 8 + 54 × 12
      publicIpHours: 162, // 96 + 54 + 12
      snapshotGbHours: 570, // 54 × 10 + 12 × 2.5
    });
    expect(onDec5.listed).toEqual({
      list: { [w.idleCompanyId]: 0, [w.companyId]: 126 },
      details: 126,
    });
  });

  it('counts the snapshots up to their deletion: on their own, and with their VM', () => {
    const ofWeb = { vmId: web, vmName: 'web', vmDeleted: true, region: LA };
    expect(customerOf(december).snapshots).toEqual([
      {
        snapshotId: snapshots.beforeResize,
        snapshotName: 'before-resize',
        ...ofWeb,
        sizeBytes: 10 * GB,
        sizeGb: 10,
        // Dec 1 00:00 -> deleted with web on Dec 3 06:00: 54 h = 3240 min; × 10 GB.
        from: '2026-12-01T00:00:00.000Z',
        to: secondsAfter('2026-12-03T06:00'),
        minutes: 3240,
        hours: 54,
        gbHours: 540,
      },
      {
        snapshotId: snapshots.nightly,
        snapshotName: 'nightly',
        ...ofWeb,
        sizeBytes: 2.5 * GB,
        sizeGb: 2.5,
        // Dec 1 00:00 -> its own delete at 12:00: 720 min; × 2.5 GB.
        from: '2026-12-01T00:00:00.000Z',
        to: secondsAfter('2026-12-01T12:00'),
        minutes: 720,
        hours: 12,
        gbHours: 30,
      },
    ]);
  });

  it('held no snapshot whose take failed, and closed each one deleted', async () => {
    const periods = await w.server.database.db
      .select({ snapshotId: snapshotPeriods.snapshotId, endedAt: snapshotPeriods.endedAt })
      .from(snapshotPeriods)
      .where(eq(snapshotPeriods.companyId, w.companyId));
    expect(periods.map((period) => period.snapshotId).sort()).toEqual(
      [snapshots.beforeResize, snapshots.nightly].sort(),
    );
    expect(periods.filter((period) => period.endedAt === null)).toEqual([]);
  });

  it('closed every period of the deleted VM, and holds one run period at most per VM', async () => {
    const runs = await w.server.database.db
      .select({ vmId: vmRunPeriods.vmId, endedAt: vmRunPeriods.endedAt })
      .from(vmRunPeriods)
      .where(eq(vmRunPeriods.companyId, w.companyId));
    // web: created, resized, resumed (three periods, all closed); db: one, closed by its shutdown.
    expect(runs.filter((run) => run.vmId === web)).toHaveLength(3);
    expect(runs.filter((run) => run.vmId === db)).toHaveLength(1);
    expect(runs.filter((run) => run.endedAt === null)).toEqual([]);
  });
});

describe('October, before anything', () => {
  it('answers every customer with zeros', async () => {
    const october = await usage('month=2026-10');
    expect(october).toMatchObject({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
    });
    expect(
      october.companies.map((c) => [
        c.name,
        c.vms,
        c.publicIps,
        c.snapshots,
        c.totals.vmExistedHours,
        c.totals.snapshotGbHours,
      ]),
    ).toEqual([
      [IDLE_NAME, [], [], [], 0, 0],
      [CUSTOMER_NAME, [], [], [], 0, 0],
    ]);
  });
});

describe('CSV', () => {
  it('writes the month as RFC 4180 CSV, a file to download, with the same figures', async () => {
    const { november } = onDec5;
    const res = await w.asStaff('staff', 'GET', '/reseller/usage?month=2026-11&format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="usage-2026-11.csv"');

    const [externalId] = await w.server.database.db
      .select({ id: companies.externalId })
      .from(companies)
      .where(eq(companies.id, w.companyId));
    const customer = `${w.companyId},${externalId!.id},"Umbrella, ""Cloud"" Ltd"`;
    const resized = customerOf(november).vms[0]!.to as string;
    const [taken, nightly] = customerOf(november).snapshots.map((row) => row.from as string);
    const month = '2026-11-01T00:00:00.000Z,2026-12-01T00:00:00.000Z';
    const end = '2026-12-01T00:00:00.000Z';
    expect(res.body).toBe(
      [
        usageCsvColumns.join(','),
        `total,${w.idleCompanyId},customer:idle,${IDLE_NAME},,,,,,,,,${month},0.00,0.00,0.00,0.00,0.00,,,,0.00`,
        // Each row's vCPU- and GB-hours are its own ran minutes times its size: 8640 × 6 / 60.
        `vm,${customer},${web},web,${LA},Small,6,10,180,,2026-11-14T09:00:00.000Z,${resized},144.00,144.00,864.00,1440.00,,,,,`,
        `vm,${customer},${web},web,${LA},Medium,8,12,240,,${resized},${end},255.00,207.00,1656.00,2484.00,,,,,`,
        `public_ip,${customer},,,${LA},,,,,${X},2026-11-14T09:00:00.000Z,${end},,,,,399.00,,,,`,
        `public_ip,${customer},${web},,${LA},,,,,${Y},2026-11-14T09:00:00.000Z,${end},,,,,399.00,,,,`,
        `snapshot,${customer},${web},web,${LA},,,,,,${taken},${end},,,,,,${snapshots.beforeResize},before-resize,10.00,3510.00`,
        `snapshot,${customer},${web},web,${LA},,,,,,${nightly},${end},,,,,,${snapshots.nightly},nightly,2.50,180.00`,
        `total,${customer},,,,,,,,,${month},399.00,351.00,2520.00,3924.00,798.00,,,,3690.00`,
        '',
      ].join('\r\n'),
    );
    // A reader that knows RFC 4180 gets the name back as it is.
    expect(parseCsv(res.body)[8]![3]).toBe(CUSTOMER_NAME);
    // The columns that were there before snapshots kept their places.
    expect(usageCsvColumns.indexOf('public_ip_hours')).toBe(18);
  });

  it('answers a month with nothing as its header and a total per customer', async () => {
    const res = await w.asStaff('staff', 'GET', '/reseller/usage?month=2026-10&format=csv');
    const rows = parseCsv(res.body);
    expect(rows.map((row) => row[0])).toEqual(['kind', 'total', 'total']);
    expect(rows.every((row) => row.length === usageCsvColumns.length)).toBe(true);
  });
});

/** RFC 4180, as a billing module's CSV reader reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

describe('who may read it', () => {
  const NOT_THERE = { data: null, message: 'Not found' };
  const NO_CUSTOMER = { data: null, message: usageMessages.companyNotFound };

  it('answers another reseller’s staff with its own customers only, and 404 for ours', async () => {
    const theirs = await usage('month=2026-11', 'staffB');
    expect(theirs.companies.map((company) => company.companyId)).toEqual([w.other.companyId]);
    const res = await w.asStaff(
      'staffB',
      'GET',
      `/reseller/usage?month=2026-11&companyId=${w.companyId}`,
    );
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 404,
      body: NO_CUSTOMER,
    });
  });

  it('answers 404 for a company that is not one of the caller’s customers', async () => {
    for (const id of [w.other.companyId, w.resellers.a.staffCompanyId, 2_000_000_000]) {
      const res = await w.asStaff('staff', 'GET', `/reseller/usage?month=2026-11&companyId=${id}`);
      expect({ status: res.statusCode, body: res.json() }, String(id)).toEqual({
        status: 404,
        body: NO_CUSTOMER,
      });
    }
  });

  it('is not there for a company Admin, whatever the query', async () => {
    await w.signInAgain();
    for (const query of ['month=2026-11', `month=2026-11&companyId=${w.companyId}`, 'month=bad']) {
      expect(await w.call('admin', 'GET', `/reseller/usage?${query}`), query).toEqual({
        status: 404,
        body: NOT_THERE,
      });
    }
  });

  it('answers a staff user’s read-only API token, as JSON and CSV', async () => {
    const made = await w.asStaff('staff', 'POST', '/apiTokens/create', {
      name: 'Billing',
      expiresAt: '2027-06-01T00:00:00Z',
      access: 'read',
    });
    expect(made.statusCode, made.body).toBe(200);
    const token = { secret: made.json().data.secret as string };
    expect(customerOf(await usage('month=2026-11', token)).totals.vmExistedHours).toBe(399);
    const csv = await w.asStaff(token, 'GET', '/reseller/usage?month=2026-11&format=csv');
    expect(csv.statusCode).toBe(200);
  });
});

describe('bad input', () => {
  const refused = async (query: string) => {
    const res = await w.asStaff('staff', 'GET', `/reseller/usage${query}`);
    expect(res.statusCode, query).toBe(400);
    return res.json() as { message: string; errors: { field: string; message: string }[] };
  };

  it('names month when it is missing or not YYYY-MM', async () => {
    for (const query of [
      '',
      '?month=',
      '?month=2026-13',
      '?month=2026-1',
      '?month=26-11',
      '?month=2026-11-01',
    ]) {
      expect((await refused(query)).errors, query).toEqual([
        { field: 'month', message: usageMessages.monthFormat },
      ]);
    }
  });

  it('names month when it is after the current month', async () => {
    // Now is in December 2026.
    expect(await refused('?month=2027-01')).toEqual({
      data: null,
      message: usageMessages.monthInFuture,
      errors: [{ field: 'month', message: usageMessages.monthInFuture }],
    });
  });

  it('names format and companyId when they are not ones it knows', async () => {
    expect((await refused('?month=2026-11&format=xml')).errors.map((e) => e.field)).toEqual([
      'format',
    ]);
    expect((await refused('?month=2026-11&companyId=abc')).errors.map((e) => e.field)).toEqual([
      'companyId',
    ]);
  });
});

describe('rounding, the same in the usage and the Customers list', () => {
  it('rounds each period to whole minutes, then sums them', async () => {
    const dbh = w.server.database.db;
    const [odd] = await dbh
      .insert(companies)
      .values({ externalId: 'customer:odd', resellerId: w.resellers.a.resellerId, name: 'Odd' })
      .returning({ id: companies.id });
    const [one, two] = await insertVms(dbh, [
      { companyId: odd!.id, teamId: null, name: 'one' },
      { companyId: odd!.id, teamId: null, name: 'two' },
    ]);
    const now = w.clock.now().getTime();
    const start = now - 2 * 3600_000;
    const period = (vmId: number, from: number, ms: number | null) => ({
      companyId: odd!.id,
      vmId,
      configurationId: 1,
      startedAt: new Date(from),
      endedAt: ms === null ? null : new Date(from + ms),
    });
    await dbh.insert(vmSizePeriods).values([
      period(one!.id, start, 29_999), // 0 min
      period(one!.id, start + 29_999, 30_000), // 1 min
      period(one!.id, start + 59_999, 90_500), // 2 min
      period(two!.id, now - 3_630_000, null), // up to now: 60.5 min, 61
    ]);
    // 0 + 1 + 2 + 61 = 64 min = 1.07 h (the exact 63.008 min would be 1.05 h).
    const answer = await usage(`month=2026-12&companyId=${odd!.id}`);
    expect(answer.companies[0]!.vms.map((vm) => vm.existedMinutes)).toEqual([0, 1, 2, 61]);
    expect(answer.companies[0]!.totals.vmExistedHours).toBe(1.07);
    expect((await listedHours()).list[odd!.id]).toBe(1.07);
  });

  it('sums snapshots’ byte-minutes, then makes GB-hours of them once', async () => {
    const dbh = w.server.database.db;
    const [odd] = await dbh
      .insert(companies)
      .values({
        externalId: 'customer:odd-snaps',
        resellerId: w.resellers.a.resellerId,
        name: 'Odd snaps',
      })
      .returning({ id: companies.id });
    const [vm] = await insertVms(dbh, [{ companyId: odd!.id, teamId: null, name: 'vm' }]);
    const now = w.clock.now().getTime();
    const held = [
      // 1 min of 1 GB: 1/60 GB-h, 0.02 on its own row.
      { name: 'a', sizeBytes: GB, from: now - 3 * 3600_000, ms: 60_000 },
      { name: 'b', sizeBytes: GB, from: now - 2 * 3600_000, ms: 60_000 },
      { name: 'c', sizeBytes: GB, from: now - 3600_000, ms: 60_000 },
      // 1.5 GB less a byte, still held: 1.50 GB, for 10 min.
      { name: 'd', sizeBytes: 1.5 * GB - 1, from: now - 600_000, ms: null },
    ];
    for (const snapshot of held) {
      const [row] = await dbh
        .insert(vmSnapshots)
        .values({
          companyId: odd!.id,
          vmId: vm!.id,
          name: snapshot.name,
          status: 'available',
          sizeBytes: snapshot.sizeBytes,
        })
        .returning({ id: vmSnapshots.id });
      await dbh.insert(snapshotPeriods).values({
        companyId: odd!.id,
        vmId: vm!.id,
        snapshotId: row!.id,
        sizeBytes: snapshot.sizeBytes,
        startedAt: new Date(snapshot.from),
        endedAt: snapshot.ms === null ? null : new Date(snapshot.from + snapshot.ms),
      });
    }
    const answer = await usage(`month=2026-12&companyId=${odd!.id}`);
    const rows = answer.companies[0]!.snapshots;
    expect(rows.map((row) => [row.snapshotName, row.sizeGb, row.minutes, row.gbHours])).toEqual([
      ['a', 1, 1, 0.02],
      ['b', 1, 1, 0.02],
      ['c', 1, 1, 0.02],
      ['d', 1.5, 10, 0.25],
    ]);
    // (3 × 1 × 2^30 + 10 × (1.5 × 2^30 - 1)) byte-min / 2^30 / 60 = 0.29999… GB-h: 0.30, where the
    // rows' 0.02 + 0.02 + 0.02 + 0.25 would make 0.31.
    expect(answer.companies[0]!.totals.snapshotGbHours).toBe(0.3);
  });
});
