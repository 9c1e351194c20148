import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkDetails, NetworkRow } from '../../src/api/contract/networks';
import { networks, publicIps } from '../../server/db/network-schema';
import { simNetworks } from '../../server/providers/sim/schema';
import { startNetworkWorld, type NetworkWorld, type Who } from './support/network-world';

let w: NetworkWorld;
/** The first network of the suite (10.40.0.0/24 in Los Angeles). */
let webTierId: number;
beforeAll(async () => {
  w = await startNetworkWorld();
});
afterAll(() => w.close());

const db = () => w.server.database.db;
async function details(id: number, who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/networks/${id}`);
  expect(res.status).toBe(200);
  return (res.body as { data: NetworkDetails }).data;
}
async function names(query = '', who: Who = 'admin') {
  const res = await w.call(who, 'GET', `/networks/list?rowsPerPage=100${query}`);
  expect(res.status).toBe(200);
  return (res.body as { data: { data: NetworkRow[] } }).data.data.map((n) => n.name);
}
const errorsOf = (res: { body: unknown }) =>
  (res.body as { errors?: { field: string; message: string }[] }).errors ?? [];

describe('POST /networks/create', () => {
  it('creates a standard network: SNAT address from the pool, built at the provider', async () => {
    const id = (webTierId = await w.createNetwork(
      w.standard({
        name: 'web tier',
        cidrBlock: '10.40.0.0/24',
        dhcpStartAddress: '10.40.0.10',
        dhcpEndAddress: '10.40.0.99',
        defaultRoute: '10.40.0.1',
      }),
    ));
    const seen = await details(id);
    expect(seen).toMatchObject({
      name: 'web tier',
      region: 'Los Angeles',
      description: 'The application tier',
      networkType: 'standard',
      cidrBlock: '10.40.0.0/24',
      gatewayIp: '10.40.0.1',
      snatEnabled: true,
      snat: expect.stringMatching(/^198\.18\.\d+\.\d+$/),
      dnsNameservers: ['1.1.1.1', '8.8.8.8'],
      allocationPools: [{ start: '10.40.0.10', end: '10.40.0.99' }],
      usedIPAddresses: 0,
      totalIPAddresses: 90,
      dhcpServerEnabled: true,
      defaultRouteEnabled: true,
      serveDNSServersEnabled: true,
      connectedVms: 0,
    });
    await w.server.finishOperations();
    const [row] = await db().select().from(networks).where(eq(networks.id, id));
    const [engine] = await db()
      .select()
      .from(simNetworks)
      .where(eq(simNetworks.ref, row!.providerRef!));
    expect(engine).toMatchObject({ state: 'active', regionKey: 'us-lax-1' });
    expect(engine!.spec).toMatchObject({
      cidr: '10.40.0.0/24',
      snatIp: seen.snat,
      dhcp: { start: '10.40.0.10', end: '10.40.0.99' },
    });
  });

  it('creates a custom network as layer 2 only: no DHCP, SNAT, route or DNS', async () => {
    const id = await w.createNetwork(
      w.custom({
        name: 'l2 only',
        cidrBlock: '10.50.0.0/24',
        // Sent anyway, and cleared.
        dhcpStartAddress: '10.50.0.10',
        defaultRoute: '10.50.0.1',
        dnsServers: '1.1.1.1',
      }),
    );
    expect(await details(id)).toMatchObject({
      networkType: 'custom',
      snat: null,
      snatEnabled: false,
      gatewayIp: null,
      dnsNameservers: [],
      allocationPools: [],
      totalIPAddresses: 0,
      dhcpServerEnabled: false,
      dhcpStartAddress: null,
      defaultRoute: null,
      defaultRouteEnabled: false,
    });
  });

  it('takes a block typed with spaces', async () => {
    const id = await w.createNetwork(
      w.custom({ name: 'spaced', cidrBlock: '192.168.100.128 / 25' }),
    );
    expect((await details(id)).cidrBlock).toBe('192.168.100.128/25');
  });

  it.each([
    [
      '1.2.3.4/24',
      'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
    ],
    [
      '255.255.255.255/27',
      'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
    ],
    [
      '224.0.0.0/24',
      'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
    ],
    [
      '127.0.0.0/24',
      'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
    ],
    [
      '169.254.0.0/24',
      'Use a private range: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 or 100.64.0.0/10',
    ],
    ['10.0.0.0/2 2', 'Enter a CIDR block such as 10.0.0.0/24'],
    ['10.60.0.77/24', 'Use the network address 10.60.0.0/24'],
  ])('refuses %s, naming the field', async (cidrBlock, message) => {
    const res = await w.call('admin', 'POST', '/networks/create', w.custom({ cidrBlock }));
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual([{ field: 'cidrBlock', message }]);
  });

  it('takes a block of the shared address space (RFC 6598)', async () => {
    const id = await w.createNetwork(w.custom({ name: 'cgnat', cidrBlock: '100.64.8.0/24' }));
    expect((await details(id)).cidrBlock).toBe('100.64.8.0/24');
  });

  it("answers 400 with the spec's messages, naming each field", async () => {
    const res = await w.call('admin', 'POST', '/networks/create', {
      networkType: 'standard',
      cidrBlock: '10.1.0.0/24',
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Network name is required' },
        { field: 'regionId', message: 'Region is required' },
      ]),
    );
    const standard = await w.call('admin', 'POST', '/networks/create', {
      name: 'x',
      regionId: w.regionId,
      cidrBlock: '10.1.0.0/24',
      networkType: 'standard',
    });
    expect(errorsOf(standard)).toEqual([
      {
        field: 'dhcpStartAddress',
        message: 'DHCP Start Address is required for Standard Networks',
      },
      { field: 'dhcpEndAddress', message: 'DHCP End Address is required for Standard Networks' },
      { field: 'defaultRoute', message: 'Default Route is required for Standard Networks' },
      { field: 'dnsServers', message: 'DNS Servers are required for Standard Networks' },
    ]);
  });

  it.each([
    [{ name: 'bad/name!' }, 'name', 'Network name contains invalid characters: / !'],
    [{ name: 'n'.repeat(65) }, 'name', 'Network name must not exceed 64 characters'],
    [{ description: 'd'.repeat(501) }, 'description', 'Description must not exceed 500 characters'],
    [{ cidrBlock: '10.1.0.0/21' }, 'cidrBlock', 'The prefix must be between /22 and /27'],
    [{ cidrBlock: '10.1.0.0/28' }, 'cidrBlock', 'The prefix must be between /22 and /27'],
    [{ cidrBlock: '300.1.0.0/24' }, 'cidrBlock', 'Enter a CIDR block such as 10.0.0.0/24'],
    [{ cidrBlock: '10.1.0.0' }, 'cidrBlock', 'Enter a CIDR block such as 10.0.0.0/24'],
    [
      { dhcpStartAddress: '10.99.0.10' },
      'dhcpStartAddress',
      'The address must be a host address inside the CIDR block',
    ],
    [
      { dhcpStartAddress: '10.20.0.250' },
      'dhcpEndAddress',
      'DHCP Start Address must not come after DHCP End Address',
    ],
    [
      { dhcpStartAddress: '10.20.0.1' },
      'dhcpStartAddress',
      'The DHCP range must not include the gateway address',
    ],
    [
      { defaultRoute: '10.20.0.256' },
      'defaultRoute',
      'An IP address is four numbers from 0 to 255 separated by dots',
    ],
    [
      { dnsServers: '1.1.1.1, 8.8.8.8, 9.9.9.9' },
      'dnsServers',
      'Enter one or two IP addresses separated by a comma',
    ],
    [{ networkType: 'vlan' }, 'networkType', expect.any(String)],
  ] as const)('refuses %j', async (overrides, field, message) => {
    const res = await w.call('admin', 'POST', '/networks/create', w.standard(overrides as never));
    expect(res.status).toBe(400);
    expect(errorsOf(res)).toContainEqual({ field, message });
  });

  it('is for Admins only', async () => {
    expect(
      await w.call('manager', 'POST', '/networks/create', w.standard({ name: 'mine' })),
    ).toMatchObject({
      status: 403,
      body: { message: 'Only Admins can create, edit or delete networks' },
    });
  });
});

describe('GET /networks/list', () => {
  beforeAll(async () => {
    const sin = await w.catalog('sg-sin-1');
    await w.createNetwork(
      w.custom({ name: 'Singapore lab', regionId: sin.regionId, cidrBlock: '10.70.0.0/24' }),
    );
    await w.runningVm('on-default');
  });

  it('lists every network of the company (also to non-Admins), by name', async () => {
    const all = await names();
    expect(all).toEqual([...all].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(all).toEqual(expect.arrayContaining(['Default network', 'Singapore lab', 'web tier']));
    expect(await names('', 'viewer')).toEqual(all);
  });

  it('filters by region and searches names', async () => {
    const sin = await w.catalog('sg-sin-1');
    expect(await names(`&regionId=${sin.regionId}`)).toEqual(['Singapore lab']);
    expect(await names('&search=SINGAP')).toEqual(['Singapore lab']);
  });

  it('sorts by CIDR in address order, region and connected VMs', async () => {
    const rows = async (query: string) => {
      const res = await w.call('admin', 'GET', `/networks/list?rowsPerPage=100${query}`);
      return (res.body as { data: { data: NetworkRow[] } }).data.data;
    };
    const byCidr = (await rows('&sortColumn=cidrBlock')).map((r) => r.cidrBlock);
    expect(byCidr[0]).toBe('10.0.0.0/22');
    expect(byCidr.indexOf('10.20.0.0/24')).toBeLessThan(byCidr.indexOf('10.40.0.0/24'));
    expect((await rows('&sortColumn=region&sortDescending=true'))[0]!.region).toBe('Singapore');
    const byVms = await rows('&sortColumn=connectedVms&sortDescending=true');
    expect(byVms[0]).toMatchObject({ name: 'Default network', connectedVms: 1 });
  });

  it('answers 400 for a bad sort column or region id', async () => {
    for (const query of ['sortColumn=vms', 'regionId=x', 'page=0']) {
      expect((await w.call('admin', 'GET', `/networks/list?${query}`)).status).toBe(400);
    }
  });
});

describe('GET /networks/getCIDRDetails', () => {
  it('suggests the gateway and the DHCP range', async () => {
    expect(await w.call('viewer', 'GET', '/networks/getCIDRDetails?cidr=192.168.8.0/22')).toEqual({
      status: 200,
      body: {
        data: {
          cidr: '192.168.8.0/22',
          gatewayIp: '192.168.8.1',
          dhcpStartAddress: '192.168.8.2',
          dhcpEndAddress: '192.168.11.254',
          warning: null,
        },
        message: 'OK',
      },
    });
  });

  it("warns about host bits, reserved ranges and the company's overlapping networks", async () => {
    const warning = async (query: string) => {
      const res = await w.call('admin', 'GET', `/networks/getCIDRDetails?${query}`);
      return (res.body as { data: { warning: string | null } }).data.warning;
    };
    expect(await warning('cidr=10.20.0.9/24')).toMatch(/host bits/);
    expect(await warning('cidr=169.254.0.0/24')).toMatch(/link-local/);
    expect(await warning('cidr=8.8.8.0/24')).toMatch(/not inside a private range/);
    expect(await warning(`cidr=10.40.0.128/25&regionId=${w.regionId}`)).toMatch(
      /overlaps web tier/,
    );
    // Not in another region, and not with the network being edited.
    const sin = await w.catalog('sg-sin-1');
    expect(await warning(`cidr=10.40.0.0/24&regionId=${sin.regionId}`)).toBeNull();
    expect(
      await warning(`cidr=10.40.0.0/24&regionId=${w.regionId}&networkId=${webTierId}`),
    ).toBeNull();
  });

  it('answers 400 for a malformed block', async () => {
    for (const cidr of ['10.0.0.0', '10.0.0.0/40', 'abc', '']) {
      const res = await w.call(
        'admin',
        'GET',
        `/networks/getCIDRDetails?cidr=${encodeURIComponent(cidr)}`,
      );
      expect(res).toMatchObject({ status: 400, body: { errors: [{ field: 'cidr' }] } });
    }
  });
});

describe('PUT /networks/update and DELETE /networks/delete', () => {
  it('edits a network without VMs; the type stays, the region cannot move', async () => {
    const id = await w.createNetwork(
      w.standard({
        name: 'editable',
        cidrBlock: '10.80.0.0/24',
        dhcpStartAddress: '10.80.0.10',
        dhcpEndAddress: '10.80.0.20',
        defaultRoute: '10.80.0.1',
      }),
    );
    const body = w.standard({
      name: 'edited',
      cidrBlock: '10.80.0.0/25',
      dhcpStartAddress: '10.80.0.5',
      dhcpEndAddress: '10.80.0.100',
      defaultRoute: '10.80.0.1',
      description: 'new words',
    });
    const { regionId: _ignored, ...update } = body;
    expect(await w.call('admin', 'PUT', `/networks/update/${id}`, update)).toEqual({
      status: 200,
      body: { data: null, message: 'Network updated' },
    });
    expect(await details(id)).toMatchObject({
      name: 'edited',
      cidrBlock: '10.80.0.0/25',
      description: 'new words',
      totalIPAddresses: 96,
    });
    expect(
      await w.call('admin', 'PUT', `/networks/update/${id}`, { ...update, networkType: 'custom' }),
    ).toMatchObject({
      status: 400,
      body: {
        errors: [
          { field: 'networkType', message: 'The network type cannot be changed after creation' },
        ],
      },
    });
    await w.server.finishOperations();
  });

  it('applies quick successive edits at the provider in turn, the last one winning', async () => {
    const id = await w.createNetwork(w.custom({ name: 'twice', cidrBlock: '10.81.0.0/24' }));
    await w.server.finishOperations();
    const { regionId: _ignored, ...first } = w.custom({
      name: 'first edit',
      cidrBlock: '10.81.0.0/24',
    });
    const { regionId: _also, ...second } = w.custom({
      name: 'second edit',
      cidrBlock: '10.81.0.0/25',
    });
    expect((await w.call('admin', 'PUT', `/networks/update/${id}`, first)).status).toBe(200);
    expect((await w.call('admin', 'PUT', `/networks/update/${id}`, second)).status).toBe(200);
    await w.server.finishOperations();
    const [row] = await db().select().from(networks).where(eq(networks.id, id));
    const [engine] = await db()
      .select()
      .from(simNetworks)
      .where(eq(simNetworks.ref, row!.providerRef!));
    expect(engine).toMatchObject({
      state: 'active',
      spec: { name: 'second edit', cidr: '10.81.0.0/25' },
    });
  });

  it('refuses to edit or delete a network with connected VMs (409)', async () => {
    const list = await w.call('admin', 'GET', '/networks/list?search=Default');
    const defaultId = (list.body as { data: { data: NetworkRow[] } }).data.data[0]!.id;
    const { regionId: _ignored, ...update } = w.standard({ name: 'renamed' });
    for (const [method, url, payload] of [
      ['PUT', `/networks/update/${defaultId}`, update],
      ['DELETE', `/networks/delete/${defaultId}`, undefined],
    ] as const) {
      expect(await w.call('admin', method, url, payload)).toMatchObject({
        status: 409,
        body: { message: 'A network with connected VMs cannot be edited or deleted' },
      });
    }
  });

  it('deletes a network: gone from the list at once, from the provider after, SNAT address freed', async () => {
    const id = await w.createNetwork(
      w.standard({
        name: 'doomed',
        cidrBlock: '10.90.0.0/24',
        dhcpStartAddress: '10.90.0.10',
        dhcpEndAddress: '10.90.0.20',
        defaultRoute: '10.90.0.1',
      }),
    );
    await w.server.finishOperations();
    const { snat } = await details(id);
    expect(await w.call('admin', 'DELETE', `/networks/delete/${id}`)).toEqual({
      status: 200,
      body: { data: null, message: 'Network is being deleted' },
    });
    expect(await names()).not.toContain('doomed');
    expect((await w.call('admin', 'GET', `/networks/${id}`)).status).toBe(404);
    await w.server.finishOperations();
    const [row] = await db().select().from(networks).where(eq(networks.id, id));
    expect(await w.server.sim.networking.getNetwork(row!.providerRef!)).toBeNull();
    const [address] = await db().select().from(publicIps).where(eq(publicIps.address, snat!));
    expect(address).toBeUndefined();
  });

  it('answers 404 for an unknown network and 403 to non-Admins', async () => {
    expect(await w.call('admin', 'GET', '/networks/999999')).toMatchObject({
      status: 404,
      body: { message: 'Network not found' },
    });
    const id = await w.createNetwork(w.custom({ name: 'keep me', cidrBlock: '10.91.0.0/24' }));
    expect((await w.call('manager', 'DELETE', `/networks/delete/${id}`)).status).toBe(403);
    expect(await names()).toContain('keep me');
  });
});

describe('GET /networks/:id/vmsForNetwork', () => {
  it('lists the VMs on the network with their addresses, as far as the caller may see them', async () => {
    const list = await w.call('admin', 'GET', '/networks/list?search=Default');
    const defaultId = (list.body as { data: { data: NetworkRow[] } }).data.data[0]!.id;
    await w.runningVm('hidden-one', { teamId: null });
    const all = await w.call('admin', 'GET', `/networks/${defaultId}/vmsForNetwork`);
    const seen = (all.body as { data: { name: string; privateIp: string }[] }).data;
    expect(seen.map((v) => v.name)).toEqual(expect.arrayContaining(['hidden-one', 'on-default']));
    expect(seen.every((v) => v.privateIp.startsWith('10.0.'))).toBe(true);
    const viewer = await w.call('viewer', 'GET', `/networks/${defaultId}/vmsForNetwork`);
    expect((viewer.body as { data: { name: string }[] }).data.map((v) => v.name)).not.toContain(
      'hidden-one',
    );
  });
});
