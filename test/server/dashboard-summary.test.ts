import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualMachines } from '../../server/db/vm-schema';
import type { DashboardSummary } from '../../src/api/contract/dashboard';
import type { VmPage } from '../../src/api/contract/vms';
import { testClock } from './support/harness';
import { createTeam } from './support/seed';
import { bearer, signIn } from './support/sign-in';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

/**
 * The Dashboard's figures: counted by the server over what the caller may see (an Admin the
 * company, anyone else their teams' VMs), another company's never. The clock runs from the end
 * of October into November, so that this month's VM-hours start at the month's first hour.
 */
let w: VmWorld;
let stranger: string;
const clock = testClock(new Date('2026-10-31T18:00:00Z'));
/** Moves the clock to the moment, and signs everyone in again (sessions do not last days). */
async function at(iso: string) {
  clock.advance(new Date(iso).getTime() - clock.now().getTime());
  await w.signInAgain();
  ({ token: stranger } = await signIn(w.server, 'stranger@b.test'));
}

async function summary(who: Who) {
  const res = await w.call(who, 'GET', '/dashboard/summary');
  expect(res.status).toBe(200);
  return (res.body as { data: DashboardSummary }).data;
}

const strangerCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  w.server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(stranger), payload });

beforeAll(async () => {
  w = await startVmWorld({ clock });
  const db = w.server.database.db;
  const gamma = await createTeam(db, { companyId: w.companyId, name: 'Gamma' });
  await at('2026-10-31T18:00:00Z');

  // Made last month, running since: this month's hours start on November 1st.
  await w.createVms('admin', { name: 'old' });
  await w.server.finishOperations();

  await at('2026-11-10T00:00:00Z');
  // Team Alpha: failed, running with a public IP, stopped without one, and one deleted at 6 am.
  w.server.sim.faults.inject({ kind: 'fail', action: 'create', message: 'No capacity' });
  await w.createVms('admin', { name: 'broken', allocatePublicIp: false });
  await w.server.finishOperations();
  await w.createVms('admin', { name: 'web' });
  const [db1] = await w.createVms('admin', { name: 'db', allocatePublicIp: false });
  const [gone] = await w.createVms('admin', { name: 'gone', allocatePublicIp: false });
  // Another team's, with a public IP, and one without a team (Admins only).
  await w.createVms('admin', { name: 'gamma-1', teamId: gamma.id });
  const [loose] = await w.createVms('admin', {
    name: 'loose',
    teamId: null,
    allocatePublicIp: false,
  });
  // Another company's, running with a public IP on its own default network.
  const theirs = await strangerCall('POST', '/virtualMachines/create', {
    ...(await w.order({ name: 'theirs', teamId: w.other.teamId })),
  });
  expect(theirs.statusCode).toBe(200);
  await w.server.finishOperations();
  expect((await w.call('admin', 'POST', `/virtualMachines/stop/${db1}`)).status).toBe(200);
  await w.server.finishOperations();
  // A guest that shut itself down counts as stopped too.
  await db.update(virtualMachines).set({ status: 'Shutoff' }).where(eq(virtualMachines.id, loose!));

  await at('2026-11-10T06:00:00Z');
  expect((await w.call('admin', 'DELETE', `/virtualMachines/delete/${gone}`)).status).toBe(200);
  await w.server.finishOperations();

  await at('2026-11-12T00:00:00Z');
}, 120_000);
afterAll(() => w.close());

describe('GET /dashboard/summary', () => {
  it("counts the whole company for an Admin, and never another company's", async () => {
    const figures = await summary('admin');
    expect(figures).toMatchObject({
      vms: { total: 6, running: 3, stopped: 2, error: 1 },
      // The region's default network, made with the first VM (the other company has its own).
      networks: 1,
      publicIps: 3,
    });
    // old: 11 days of November; web, db, broken, gamma-1, loose: 2 days each; gone: 6 hours.
    expect(figures.vmHours).toBeCloseTo(264 + 5 * 48 + 6, 1);
  });

  it("counts only the VMs of a Viewer's team", async () => {
    const figures = await summary('viewer');
    expect(figures).toMatchObject({
      vms: { total: 4, running: 2, stopped: 1, error: 1 },
      // Networks are company-wide.
      networks: 1,
      publicIps: 2,
    });
    expect(figures.vmHours).toBeCloseTo(264 + 3 * 48 + 6, 1);
  });

  it('counts nothing of VMs for a user of no team', async () => {
    expect(await summary('outsider')).toEqual({
      vms: { total: 0, running: 0, stopped: 0, error: 0 },
      networks: 1,
      publicIps: 0,
      vmHours: 0,
    });
  });

  it("gives the other company its own figures, none of this one's", async () => {
    const res = await strangerCall('GET', '/dashboard/summary');
    expect(res.statusCode).toBe(200);
    const figures = (res.json() as { data: DashboardSummary }).data;
    expect(figures).toMatchObject({
      vms: { total: 1, running: 1, stopped: 0, error: 0 },
      networks: 1,
      publicIps: 1,
    });
    expect(figures.vmHours).toBeCloseTo(48, 1);
  });

  it('starts the hours afresh with a new month', async () => {
    await at('2026-12-01T03:00:00Z');
    // Six VMs for three hours each (the deleted one is gone for good).
    expect((await summary('admin')).vmHours).toBeCloseTo(18, 1);
    await at('2026-11-12T00:00:00Z');
  });

  it('needs a verified session', async () => {
    const res = await w.server.app.inject({ method: 'GET', url: '/api/v1/dashboard/summary' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /virtualMachines/list?status=', () => {
  const names = async (who: Who, query: string) => {
    const res = await w.call(who, 'GET', `/virtualMachines/list?rowsPerPage=100&${query}`);
    expect(res.status).toBe(200);
    return (res.body as { data: VmPage }).data.data.map((vm) => vm.name).sort();
  };

  it('lists the VMs each figure counts', async () => {
    expect(await names('admin', 'status=running')).toEqual(['gamma-1', 'old', 'web']);
    expect(await names('admin', 'status=stopped')).toEqual(['db', 'loose']);
    expect(await names('admin', 'status=error')).toEqual(['broken']);
    expect(await names('admin', 'status=inProgress')).toEqual([]);
    expect(await names('viewer', 'status=running')).toEqual(['old', 'web']);
    expect(await names('viewer', 'status=stopped')).toEqual(['db']);
  });

  it('combines with the search, the team and the pages', async () => {
    expect(await names('admin', 'status=running&search=e')).toEqual(['web']);
    expect(await names('admin', `status=running&teamId=${w.alphaId}`)).toEqual(['old', 'web']);
    const page = await w.call('admin', 'GET', '/virtualMachines/list?status=running&rowsPerPage=2');
    expect(page.body).toMatchObject({ data: { totalPages: 2 } });
    const second = await w.call(
      'admin',
      'GET',
      '/virtualMachines/list?status=running&rowsPerPage=2&page=2',
    );
    expect((second.body as { data: VmPage }).data.data.map((vm) => vm.name)).toEqual(['web']);
  });

  it('refuses a status it does not know, naming the field', async () => {
    const res = await w.call('admin', 'GET', '/virtualMachines/list?status=Running');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errors: [{ field: 'status' }] });
  });
});
