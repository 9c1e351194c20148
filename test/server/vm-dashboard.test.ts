import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardData, SizeCounts } from '../../src/api/contract/vms';
import { testClock } from './support/harness';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * Usage is counted per size and period: a VM counts in a period for every size it had at any
 * moment of it (ARCHITECTURE.md). The clock walks through a year boundary and several months.
 */
let w: VmWorld;
const clock = testClock(new Date('2025-12-20T10:00:00Z'));
/** Moves the clock to the moment, and signs everyone in again (sessions do not last months). */
async function at(iso: string) {
  clock.advance(new Date(iso).getTime() - clock.now().getTime());
  await w.signInAgain();
}

const counts = (partial: Partial<SizeCounts>): SizeCounts => ({
  micro: 0,
  extraSmall: 0,
  small: 0,
  medium: 0,
  large: 0,
  extraLarge: 0,
  ...partial,
});

async function dashboard(who: Who = 'admin') {
  const res = await w.call(who, 'GET', '/virtualMachines/GetDashboardData');
  expect(res.status).toBe(200);
  return (res.body as { data: DashboardData }).data;
}

beforeAll(async () => {
  w = await startVmWorld({ clock });
  // 2025: a Micro that lives a week, the year before.
  const [before] = await w.createVms('admin', {
    name: 'last-year',
    configurationId: 1,
    providerId: await w.providerId('sim-northwind'),
  });
  await w.server.finishOperations();
  await at('2025-12-28T00:00:00Z');
  await w.call('admin', 'DELETE', `/virtualMachines/delete/${before}`);
  await w.server.finishOperations();

  // 2026: a Small made in January, upgraded to Large in February.
  await at('2026-01-05T09:00:00Z');
  const [grown] = await w.createVms('admin', { name: 'grown', configurationId: 3 });
  await w.server.finishOperations();
  await at('2026-02-10T09:00:00Z');
  await w.call('admin', 'PUT', '/virtualMachines/changeConfiguration', {
    id: grown,
    configurationId: 5,
  });
  await w.server.finishOperations();

  // A Medium without a team from October 20th to November 3rd.
  await at('2026-10-20T09:00:00Z');
  const [brief] = await w.createVms('admin', { name: 'brief', configurationId: 4, teamId: null });
  await w.server.finishOperations();
  await at('2026-11-03T09:00:00Z');
  await w.call('admin', 'DELETE', `/virtualMachines/delete/${brief}`);
  await w.server.finishOperations();

  // An Extra Small made this month.
  await at('2026-11-21T12:00:00Z');
  await w.createVms('admin', { name: 'fresh', configurationId: 2 });
  await w.server.finishOperations();
}, 60_000);
afterAll(() => w.close());

describe('GET /virtualMachines/GetDashboardData', () => {
  it('counts this month, last month and the year so far, for the whole company', async () => {
    expect(await dashboard()).toEqual({
      currentMonth: counts({ extraSmall: 1, medium: 1, large: 1 }),
      previousMonth: counts({ medium: 1, large: 1 }),
      ytd: counts({ extraSmall: 1, small: 1, medium: 1, large: 1 }),
    });
  });

  it("counts only the VMs of the caller's teams for a team member", async () => {
    expect(await dashboard('viewer')).toEqual({
      currentMonth: counts({ extraSmall: 1, large: 1 }),
      previousMonth: counts({ large: 1 }),
      ytd: counts({ extraSmall: 1, small: 1, large: 1 }),
    });
    expect(await dashboard('outsider')).toEqual({
      currentMonth: counts({}),
      previousMonth: counts({}),
      ytd: counts({}),
    });
  });

  it('starts afresh across the year boundary', async () => {
    await at('2027-01-02T08:00:00Z');
    expect(await dashboard()).toEqual({
      currentMonth: counts({ extraSmall: 1, large: 1 }),
      previousMonth: counts({ extraSmall: 1, large: 1 }),
      ytd: counts({ extraSmall: 1, large: 1 }),
    });
  });

  it('needs a verified session', async () => {
    const res = await w.server.app.inject({
      method: 'GET',
      url: '/api/v1/virtualMachines/GetDashboardData',
    });
    expect(res.statusCode).toBe(401);
  });
});
