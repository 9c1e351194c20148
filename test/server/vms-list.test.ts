import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VmRow } from '../../src/api/contract/vms';
import { createTeam } from './support/seed';
import { insertVms } from './support/vm-fixtures';
import { startVmWorld, type VmWorld, type Who } from './support/vm-world';

let w: VmWorld;
let betaId: number;
beforeAll(async () => {
  w = await startVmWorld();
  const db = w.server.database.db;
  betaId = (await createTeam(db, { companyId: w.companyId, name: 'Beta' })).id;
  // Sizes Small (3), Medium (4) and Micro (1) through the API, at different moments.
  await w.createVms('admin', { name: 'Web-b', configurationId: 3 });
  w.server.clock.advance(60_000);
  await w.createVms('admin', { name: 'db_a', configurationId: 4 });
  w.server.clock.advance(60_000);
  await w.createVms('admin', {
    name: 'cache.c',
    configurationId: 1,
    providerId: await w.providerId('sim-northwind'),
  });
  await w.server.finishOperations();
  await w.call('admin', 'POST', `/virtualMachines/stop/${await idOf('db_a')}`);
  await w.server.finishOperations();
  // Micro VMs (the first offer of the catalogue), Running.
  await insertVms(db, [
    { companyId: w.companyId, teamId: betaId, name: 'beta-only' },
    { companyId: w.companyId, teamId: null, name: 'loose' },
    { companyId: w.other.companyId, teamId: w.other.teamId, name: 'theirs' },
  ]);
}, 60_000);
afterAll(() => w.close());

async function list(who: Who, query = '') {
  const res = await w.call(who, 'GET', `/virtualMachines/list?rowsPerPage=100${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: VmRow[]; totalPages: number } }).data;
}
const namesOf = async (who: Who, query = '') => (await list(who, query)).data.map((r) => r.name);
async function idOf(name: string) {
  const rows = (await list('admin')).data;
  return rows.find((r) => r.name === name)!.id;
}

describe('GET /virtualMachines/list', () => {
  it('answers the rows of the spec, sorted by name ascending by default', async () => {
    const { data, totalPages } = await list('admin');
    expect(data.map((r) => r.name)).toEqual(['beta-only', 'cache.c', 'db_a', 'loose', 'Web-b']);
    expect(totalPages).toBe(1);
    expect(data.find((r) => r.name === 'db_a')).toEqual({
      id: expect.any(Number),
      name: 'db_a',
      status: 'Stopped',
      configuration: 'Medium',
      cpu: 8,
      ram: 12,
      createdAt: expect.any(String),
      // Ordered with a public IP: the address its customer reaches it at.
      primaryIp: { address: expect.stringMatching(/^198\.18\./), kind: 'public' },
    });
  });

  it.each([
    ['name', false, ['beta-only', 'cache.c', 'db_a', 'loose', 'Web-b']],
    ['name', true, ['Web-b', 'loose', 'db_a', 'cache.c', 'beta-only']],
    ['status', false, ['Web-b', 'cache.c', 'beta-only', 'loose', 'db_a']],
    ['configuration', false, ['cache.c', 'beta-only', 'loose', 'Web-b', 'db_a']],
    ['configuration', true, ['db_a', 'Web-b', 'loose', 'beta-only', 'cache.c']],
    ['createdAt', true, ['loose', 'beta-only', 'cache.c', 'db_a', 'Web-b']],
  ] as const)('sorts by %s (descending: %s)', async (column, descending, expected) => {
    expect(await namesOf('admin', `&sortColumn=${column}&sortDescending=${descending}`)).toEqual(
      expected,
    );
  });

  it('searches names case-insensitively, with % and _ taken literally', async () => {
    expect(await namesOf('admin', '&search=WEB')).toEqual(['Web-b']);
    expect(await namesOf('admin', '&search=_')).toEqual(['db_a']);
    expect(await namesOf('admin', '&search=%25')).toEqual([]);
  });

  it('pages with a stable order and counts the pages', async () => {
    const first = await w.call('admin', 'GET', '/virtualMachines/list?rowsPerPage=2&page=1');
    const third = await w.call('admin', 'GET', '/virtualMachines/list?rowsPerPage=2&page=3');
    expect(first.body).toMatchObject({ data: { totalPages: 3 } });
    const names = (res: typeof first) =>
      (res.body as { data: { data: VmRow[] } }).data.data.map((r) => r.name);
    expect(names(first)).toEqual(['beta-only', 'cache.c']);
    expect(names(third)).toEqual(['Web-b']);
  });

  it("shows each role its teams' VMs; VMs without a team to Admins only", async () => {
    expect(await namesOf('viewer')).toEqual(['cache.c', 'db_a', 'Web-b']);
    expect(await namesOf('manager')).toEqual(['cache.c', 'db_a', 'Web-b']);
    expect(await namesOf('outsider')).toEqual([]);
  });

  it('scopes the list to one team', async () => {
    expect(await namesOf('admin', `&teamId=${betaId}`)).toEqual(['beta-only']);
    expect(await namesOf('viewer', `&teamId=${w.alphaId}`)).toEqual(['cache.c', 'db_a', 'Web-b']);
    const notMine = await w.call('viewer', 'GET', `/virtualMachines/list?teamId=${betaId}`);
    expect(notMine).toMatchObject({ status: 404, body: { message: 'Team not found' } });
  });

  it('leaves deleted VMs out at once', async () => {
    const res = await w.call('admin', 'DELETE', `/virtualMachines/delete/${await idOf('loose')}`);
    expect(res.status).toBe(200);
    expect(await namesOf('admin')).not.toContain('loose');
    await w.server.finishOperations();
  });

  it.each([
    ['sortColumn=cpu', 'sortColumn'],
    ['sortDescending=maybe', 'sortDescending'],
    ['page=0', 'page'],
    ['rowsPerPage=1000', 'rowsPerPage'],
    ['teamId=abc', 'teamId'],
  ])('answers 400 for %s, naming the field', async (query, field) => {
    const res = await w.call('admin', 'GET', `/virtualMachines/list?${query}`);
    expect(res).toMatchObject({ status: 400, body: { errors: [{ field }] } });
  });
});
