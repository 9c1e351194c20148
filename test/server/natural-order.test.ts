import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regions } from '../../server/db/catalog-schema';
import { networks, vmInterfaces } from '../../server/db/network-schema';
import { ROLE } from '../../src/api/contract/roles';
import { fullName } from '../../src/components/user-name';
import { startTestServer, type TestServer } from './support/harness';
import { addTeamMember, createCompany, createTeam, createUser } from './support/seed';
import { bearer, signIn } from './support/sign-in';
import { insertVms } from './support/vm-fixtures';

/**
 * Every list that sorts by a name puts the names in natural order: runs of digits compare as
 * numbers of any length, case does not count, and neither do leading zeros (`a1` and `a01` tie
 * and the id decides, as it does for `Web-2` and `web-2`). Each list is read in pages of four,
 * both ways where it has a direction, and the VM list deep past its anchors.
 */

const THIRTY_DIGITS = '923456789012345678901234567890';
/** Greater than the thirty digits, though it starts with a 1. */
const THIRTY_ONE_DIGITS = '1234567890123456789012345678901';

/** In the order they are made, so that the ids do not give the order away. */
const MADE = [
  'batch-10',
  'web-10',
  'batch-2',
  'a1',
  `n-${THIRTY_ONE_DIGITS}`,
  'batch-1',
  'Web-2',
  'a2',
  `n-${THIRTY_DIGITS}`,
  'a01',
  ...[9, 3, 8, 4, 7, 5, 6].map((n) => `batch-${n}`),
];

/** `a1` before `a01`: equal numbers, and `a1` was made first. */
const NATURAL = [
  'a1',
  'a01',
  'a2',
  ...Array.from({ length: 10 }, (_, i) => `batch-${i + 1}`),
  `n-${THIRTY_DIGITS}`,
  `n-${THIRTY_ONE_DIGITS}`,
  'Web-2',
  'web-10',
];

const INVITED = 'c-invited@natural.test';

/** The deep list: `deep-1` … `deep-600` in mixed case, made from the last to the first. */
const DEEP = 600;
const deepName = (n: number) => `${n % 2 ? 'Deep' : 'deep'}-${n}`;

let server: TestServer;
let token: string;
let deepToken: string;
let adminId: number;
let teamId: number;
let networkId: number;
let vmId: number;

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  const { company } = await createCompany(db);
  const admin = await createUser(db, {
    companyId: company.id,
    email: 'zulu@natural.test',
    firstName: 'Zulu',
    lastName: 'Admin',
    isAdmin: true,
  });
  adminId = admin.id;
  const people = [];
  for (const [i, name] of MADE.entries()) {
    people.push(
      await createUser(db, {
        companyId: company.id,
        email: `person-${i}@natural.test`,
        firstName: name,
        lastName: 'User',
      }),
    );
  }
  // Invited, not yet named: the list shows the address, and sorts it where the address falls.
  await createUser(db, {
    companyId: company.id,
    email: INVITED,
    firstName: '',
    lastName: '',
    password: null,
  });
  const teams = [];
  for (const name of MADE) teams.push(await createTeam(db, { companyId: company.id, name }));
  teamId = teams[MADE.indexOf('batch-1')]!.id;
  for (const person of people) await addTeamMember(db, { teamId, userId: person.id });
  for (const team of teams) {
    await addTeamMember(db, { teamId: team.id, userId: admin.id, roleId: ROLE.admin });
  }

  const vms = await insertVms(
    db,
    MADE.map((name) => ({ companyId: company.id, teamId: null, name })),
  );
  vmId = vms[0]!.id;
  const [lax] = await db.select().from(regions).where(eq(regions.key, 'us-lax-1'));
  const made = await db
    .insert(networks)
    .values(
      MADE.map((name, i) => ({
        companyId: company.id,
        regionId: lax!.id,
        name,
        networkType: 'custom' as const,
        cidrBlock: `10.${i + 1}.0.0/24`,
        snatEnabled: false,
        dhcpServerEnabled: false,
        defaultRouteEnabled: false,
        serveDnsServersEnabled: false,
      })),
    )
    .returning({ id: networks.id });
  networkId = made[MADE.indexOf('batch-1')]!.id;
  await db.insert(vmInterfaces).values(
    vms.map((vm, i) => ({
      companyId: company.id,
      vmId: vm.id,
      networkId,
      vmnic: 1,
      macAddress: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
      status: 'Active' as const,
    })),
  );
  ({ token } = await signIn(server, admin.email));

  const deep = (await createCompany(db)).company;
  const deepAdmin = await createUser(db, {
    companyId: deep.id,
    email: 'deep@natural.test',
    isAdmin: true,
  });
  await insertVms(
    db,
    Array.from({ length: DEEP }, (_, i) => ({
      companyId: deep.id,
      teamId: null,
      name: deepName(DEEP - i),
    })),
  );
  ({ token: deepToken } = await signIn(server, deepAdmin.email));
}, 60_000);
afterAll(() => server.close());

async function get(url: string, as = token) {
  const res = await server.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(as) });
  expect(res.statusCode, url).toBe(200);
  return res.json().data;
}

/** Every page of a list, `rowsPerPage` at a time; `pick` reads one page's names. */
async function everyPage<T>(
  url: string,
  pick: (data: T) => { names: string[]; totalPages: number },
  rowsPerPage = 4,
) {
  const names: string[] = [];
  for (let page = 1; ; page += 1) {
    const separator = url.includes('?') ? '&' : '?';
    const read = pick(
      (await get(`${url}${separator}page=${page}&rowsPerPage=${rowsPerPage}`)) as T,
    );
    expect(read.names.length, `${url} page ${page}`).toBeLessThanOrEqual(rowsPerPage);
    names.push(...read.names);
    if (page >= read.totalPages) return names;
  }
}

type Paged<T> = { data: T[]; totalPages: number };
const byName = (data: Paged<{ name: string }>) => ({
  names: data.data.map((row) => row.name),
  totalPages: data.totalPages,
});
const descending = (names: string[]) => [...names].reverse();

describe('natural order of names', () => {
  it('on the VM list, both ways, across pages', async () => {
    const url = '/virtualMachines/list?sortColumn=name';
    expect(await everyPage(`${url}&sortDescending=false`, byName)).toEqual(NATURAL);
    expect(await everyPage(`${url}&sortDescending=true`, byName)).toEqual(descending(NATURAL));
  });

  it('on the VM list searched, which sorts its matches itself', async () => {
    const batches = NATURAL.filter((name) => name.startsWith('batch-'));
    expect(await everyPage('/virtualMachines/list?search=batch', byName)).toEqual(batches);
    expect(
      await everyPage('/virtualMachines/list?search=batch&sortDescending=true', byName),
    ).toEqual(descending(batches));
  });

  it('on deep pages of the VM list, read from its anchors', async () => {
    const page = async (query: string) =>
      (
        (await get(`/virtualMachines/list?${query}`, deepToken)) as Paged<{ name: string }>
      ).data.map((row) => row.name);
    const names = (from: number, to: number) =>
      Array.from({ length: Math.abs(to - from) + 1 }, (_, i) =>
        deepName(from < to ? from + i : from - i),
      );
    // Rows 291-300 and 591-600, from the anchors at rows 251 and 501.
    expect(await page('page=30')).toEqual(names(291, 300));
    expect(await page('page=60')).toEqual(names(591, 600));
    expect(await page('page=30&sortDescending=true')).toEqual(names(310, 301));
    // From the anchor at row 251 across the one at row 501: rows 498-504.
    expect(await page('page=72&rowsPerPage=7')).toEqual(names(498, 504));
    expect(await page('page=72&rowsPerPage=7&sortDescending=true')).toEqual(names(103, 97));
  });

  it('on the networks list, both ways, across pages', async () => {
    const url = '/networks/list?sortColumn=name';
    expect(await everyPage(`${url}&sortDescending=false`, byName)).toEqual(NATURAL);
    expect(await everyPage(`${url}&sortDescending=true`, byName)).toEqual(descending(NATURAL));
  });

  it('on the teams list and a user’s teams, across pages', async () => {
    expect(await everyPage('/teams/list', byName)).toEqual(NATURAL);
    expect(await everyPage(`/users/teams/${adminId}`, byName)).toEqual(NATURAL);
  });

  it('on the users list by the name it shows, an invited user’s address, both ways', async () => {
    const shown = (data: Paged<{ firstName: string; lastName: string; email: string }>) => ({
      names: data.data.map(fullName),
      totalPages: data.totalPages,
    });
    const url = '/users/list?sortColumn=name';
    const named = NATURAL.map((name) => `${name} User`);
    const afterBatch10 = named.indexOf('batch-10 User') + 1;
    const ascending = [
      ...named.slice(0, afterBatch10),
      INVITED,
      ...named.slice(afterBatch10),
      'Zulu Admin',
    ];
    expect(await everyPage(`${url}&sortDescending=false`, shown)).toEqual(ascending);
    expect(await everyPage(`${url}&sortDescending=true`, shown)).toEqual(descending(ascending));
  });

  it('on a team’s members and their permissions', async () => {
    const members = [...NATURAL.map((name) => `${name} User`), 'Zulu Admin'];
    const read = (data: { members: { name: string }[]; totalPages: number }) => ({
      names: data.members.map((member) => member.name),
      totalPages: data.totalPages,
    });
    expect(await everyPage(`/teams/${teamId}`, read)).toEqual(members);
    const permissions = (await get(`/permissions/list/${teamId}`)) as {
      entries: { name: string }[];
    };
    expect(permissions.entries.map((entry) => entry.name)).toEqual(members);
  });

  it('on the VMs of a network and the networks a VM may join', async () => {
    const connected = (await get(`/networks/${networkId}/vmsForNetwork`)) as { name: string }[];
    expect(connected.map((vm) => vm.name)).toEqual(NATURAL);
    const available = (await get(`/virtualMachines/${vmId}/availableNetworks`)) as {
      name: string;
    }[];
    expect(available.map((network) => network.name)).toEqual(
      NATURAL.filter((name) => name !== 'batch-1'),
    );
  });
});
