import type { Configuration, VmDetails, VmRow } from '../../../src/api/contract/vms';
import { serveActivity } from './activity-fixtures';
import { api, fail, http, ok, server } from './msw';
import { gate, type Recorded } from './teams-fixtures';

// Bodies are typed with the contract; msw's JSON turns their dates into ISO strings, as the API does.

export const aVmRow = (id: number, overrides: Partial<VmRow> = {}): VmRow => ({
  id,
  name: `vm-${String(id).padStart(2, '0')}`,
  status: 'Running',
  configuration: 'Small',
  cpu: 6,
  ram: 10,
  createdAt: new Date('2026-02-03T10:00:00.000Z'),
  primaryIp: null,
  ...overrides,
});

const compare = (a: VmRow, b: VmRow, column: string) => {
  if (column === 'createdAt') return a.createdAt.getTime() - b.createdAt.getTime();
  const key = column as 'name' | 'status' | 'configuration';
  return a[key].localeCompare(b[key]);
};

/**
 * Serves virtualMachines/list from `rows` (25 by default): searched by name, sorted, paged; with
 * `teamId`, from `teams[teamId]` instead. Records every query string.
 */
export function serveVms({
  rows = Array.from({ length: 25 }, (_, i) => aVmRow(i + 1)),
  teams = {},
}: { rows?: VmRow[]; teams?: Record<number, VmRow[]> } = {}) {
  const queries: Recorded[] = [];
  const held = gate();
  let all = rows;
  server.use(
    http.get(api('virtualMachines/list'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      await held.wait();
      const teamId = params.get('teamId');
      const source = teamId ? (teams[Number(teamId)] ?? []) : all;
      const search = (params.get('search') ?? '').toLowerCase();
      const column = params.get('sortColumn') ?? 'name';
      const sign = params.get('sortDescending') === 'true' ? -1 : 1;
      const found = source
        .filter((row) => row.name.toLowerCase().includes(search))
        .sort((a, b) => sign * compare(a, b, column));
      const page = Number(params.get('page'));
      const size = Number(params.get('rowsPerPage'));
      return ok({
        data: found.slice((page - 1) * size, page * size),
        totalPages: Math.max(1, Math.ceil(found.length / size)),
      });
    }),
  );
  return {
    queries,
    last: () => queries.at(-1),
    hold: held.hold,
    set: (next: VmRow[]) => (all = next),
  };
}

export const aVmDetails = (
  overrides: Partial<Omit<VmDetails, 'virtualMachine'>> & {
    virtualMachine?: Partial<VmDetails['virtualMachine']>;
  } = {},
): VmDetails => ({
  status: 'Running',
  consoleAvailable: true,
  statusMessage: null,
  yourRoleId: 1,
  usage: { cpuUsage: 37, ramUsage: 52 },
  ...overrides,
  virtualMachine: {
    id: 12,
    name: 'web-01',
    country: 'Germany',
    configuration: 'Small',
    configurationId: 3,
    region: 'Frankfurt',
    regionId: 4,
    image: 'Ubuntu 24.04',
    imageId: 41,
    provider: 'sim',
    createdAt: new Date('2026-01-05T08:30:00.000Z'),
    updatedAt: new Date('2026-01-06T09:45:00.000Z'),
    cpu: 6,
    ram: 10,
    disk: 180,
    username: 'ubuntu',
    teamId: 5,
    teamName: 'Platform',
    primaryIp: null,
    hasPrivateKey: true,
    ...overrides.virtualMachine,
  },
});

/**
 * Serves virtualMachines/details/{id} for one VM (any other id answers 404) and counts the
 * requests; `set` changes what later answers hold. The VM has no network interfaces.
 */
export function serveVm(details: VmDetails = aVmDetails()) {
  const id = details.virtualMachine.id;
  let current = details;
  let requests = 0;
  const held = gate();
  serveActivity();
  server.use(
    // The VM pages list its interfaces: none, unless a test serves some (networks-fixtures).
    http.get(api('networks/listNetAdapters/:id'), () => ok([])),
    // And its snapshots: none, unless a test serves some (vm-snapshots.test.tsx).
    http.get(api('virtualMachines/snapshots/list/:vmId'), () => ok({ snapshots: [], maxPerVm: 5 })),
    http.get(api('virtualMachines/details/:id'), async ({ params }) => {
      requests += 1;
      await held.wait();
      if (Number(params.id) !== id) return fail(404, 'Virtual machine not found');
      return ok(current);
    }),
  );
  return {
    requests: () => requests,
    hold: held.hold,
    set: (patch: Parameters<typeof aVmDetails>[0]) => {
      current = aVmDetails({
        ...current,
        ...patch,
        virtualMachine: { ...current.virtualMachine, ...patch?.virtualMachine },
      });
    },
  };
}

/** Records the requests an action endpoint receives (the path's `:id` and the JSON body). */
export function recordAction(
  method: 'post' | 'put' | 'delete',
  path: string,
  answer: () => Response | Promise<Response> = () => ok(null),
) {
  const calls: { id: unknown; body: unknown }[] = [];
  const held = gate();
  server.use(
    http[method](api(path), async ({ request, params }) => {
      const text = await request.text();
      calls.push({ id: params.id, body: text ? JSON.parse(text) : undefined });
      await held.wait();
      return answer();
    }),
  );
  return { calls, hold: held.hold };
}

export const sizes: Configuration[] = [
  { id: 1, key: 'micro', name: 'Micro', cpu: 2, ram: 4, disk: 80 },
  { id: 2, key: 'extraSmall', name: 'Extra Small', cpu: 4, ram: 8, disk: 120 },
  { id: 3, key: 'small', name: 'Small', cpu: 6, ram: 10, disk: 180 },
  { id: 4, key: 'medium', name: 'Medium', cpu: 8, ram: 12, disk: 240 },
  { id: 5, key: 'large', name: 'Large', cpu: 12, ram: 48, disk: 300 },
];
