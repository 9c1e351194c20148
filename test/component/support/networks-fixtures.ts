import { serveActivity } from './activity-fixtures';
import type { CombinedRegion } from '../../../src/api/contract/vms';
import type {
  CidrDetails,
  ConnectedVm,
  NetworkDetails,
  NetworkRow,
} from '../../../src/api/contract/networks';
import { api, fail, http, ok, server } from './msw';
import { gate, type Recorded } from './teams-fixtures';

// Bodies are typed with the contract; msw's JSON turns their dates into ISO strings, as the API does.

export const REGIONS: CombinedRegion[] = [
  { id: 4, countryRegion: 'Germany - Frankfurt' },
  { id: 7, countryRegion: 'United States - Virginia' },
];

/** `GET /virtualMachines/listCombinedRegions`. */
export const serveRegions = () =>
  server.use(http.get(api('virtualMachines/listCombinedRegions'), () => ok(REGIONS)));

/** A network list row in a region (the list filters by region id; rows show its name). */
export interface StoredRow extends NetworkRow {
  regionId: number;
}

export const aNetworkRow = (id: number, overrides: Partial<StoredRow> = {}): StoredRow => ({
  id,
  name: `net-${String(id).padStart(2, '0')}`,
  cidrBlock: `10.${id}.0.0/24`,
  region: id % 2 ? 'Germany - Frankfurt' : 'United States - Virginia',
  regionId: id % 2 ? 4 : 7,
  connectedVms: id % 4,
  ...overrides,
});

const compare = (a: StoredRow, b: StoredRow, column: string) =>
  column === 'connectedVms'
    ? a.connectedVms - b.connectedVms
    : a[column as 'name' | 'cidrBlock' | 'region'].localeCompare(
        b[column as 'name' | 'cidrBlock' | 'region'],
      );

/**
 * Serves networks/list from `rows` (25 by default): searched by name, filtered by region, sorted
 * and paged. Records every query string.
 */
export function serveNetworks(rows = Array.from({ length: 25 }, (_, i) => aNetworkRow(i + 1))) {
  const queries: Recorded[] = [];
  const held = gate();
  server.use(
    http.get(api('networks/list'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      await held.wait();
      const regionId = params.get('regionId');
      const search = (params.get('search') ?? '').toLowerCase();
      const column = params.get('sortColumn') ?? 'name';
      const sign = params.get('sortDescending') === 'true' ? -1 : 1;
      const found = rows
        .filter((row) => !regionId || row.regionId === Number(regionId))
        .filter((row) => row.name.toLowerCase().includes(search))
        .sort((a, b) => sign * compare(a, b, column));
      const page = Number(params.get('page'));
      const size = Number(params.get('rowsPerPage'));
      return ok({
        data: found.slice((page - 1) * size, page * size).map(({ regionId: _, ...row }) => row),
        totalPages: Math.max(1, Math.ceil(found.length / size)),
      });
    }),
  );
  return { queries, last: () => queries.at(-1), hold: held.hold };
}

export const aNetwork = (overrides: Partial<NetworkDetails> = {}): NetworkDetails => ({
  id: 3,
  name: 'backend',
  regionId: 4,
  region: 'Germany - Frankfurt',
  description: 'Databases and queues',
  cidrBlock: '10.20.0.0/24',
  snat: '203.0.113.10',
  snatEnabled: true,
  gatewayIp: '10.20.0.1',
  dnsNameservers: ['1.1.1.1', '8.8.8.8'],
  createdAt: new Date('2026-01-05T08:30:00.000Z'),
  updatedAt: new Date('2026-01-06T09:45:00.000Z'),
  networkType: 'standard',
  allocationPools: [{ start: '10.20.0.2', end: '10.20.0.254' }],
  usedIPAddresses: 2,
  totalIPAddresses: 253,
  dhcpServerEnabled: true,
  dhcpStartAddress: '10.20.0.2',
  dhcpEndAddress: '10.20.0.254',
  defaultRouteEnabled: true,
  defaultRoute: '10.20.0.1',
  serveDNSServersEnabled: true,
  connectedVms: 0,
  ...overrides,
});

/** A custom network: layer 2 only. */
export const aCustomNetwork = (overrides: Partial<NetworkDetails> = {}) =>
  aNetwork({
    id: 9,
    name: 'storage-l2',
    networkType: 'custom',
    cidrBlock: '192.168.50.0/26',
    snat: null,
    snatEnabled: false,
    gatewayIp: null,
    dnsNameservers: [],
    allocationPools: [],
    usedIPAddresses: 0,
    totalIPAddresses: 0,
    dhcpServerEnabled: false,
    dhcpStartAddress: null,
    dhcpEndAddress: null,
    defaultRouteEnabled: false,
    defaultRoute: null,
    serveDNSServersEnabled: false,
    ...overrides,
  });

/**
 * Serves networks/{id} and networks/{id}/vmsForNetwork for one network (any other id answers 404
 * 'Network not found'), counting the detail requests.
 */
export function serveNetwork(network: NetworkDetails = aNetwork(), vms: ConnectedVm[] = []) {
  let requests = 0;
  serveActivity();
  server.use(
    http.get(api('networks/:id'), ({ params }) => {
      // networks/list and networks/getCIDRDetails fall through to their own handlers.
      if (!/^\d+$/.test(String(params.id))) return;
      requests += 1;
      if (Number(params.id) !== network.id) return fail(404, 'Network not found');
      return ok(network);
    }),
    http.get(api('networks/:id/vmsForNetwork'), ({ params }) => {
      if (Number(params.id) !== network.id) return fail(404, 'Network not found');
      return ok(vms);
    }),
  );
  return { requests: () => requests };
}

/** Serves networks/getCIDRDetails from the block's first addresses; records the query strings. */
export function serveCidrDetails(warning: string | null = null) {
  const queries: Recorded[] = [];
  server.use(
    http.get(api('networks/getCIDRDetails'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      const cidr = params.get('cidr')!;
      const [a, b, c] = cidr.split('/')[0]!.split('.');
      const base = `${a}.${b}.${c}`;
      const details: CidrDetails = {
        cidr,
        gatewayIp: `${base}.1`,
        dhcpStartAddress: `${base}.2`,
        dhcpEndAddress: `${base}.254`,
        warning,
      };
      return ok(details);
    }),
  );
  return { queries, last: () => queries.at(-1) };
}
