import type { AvailableNetwork, NetworkAdapter } from '../../src/api/contract/networks';
import { api, http, ok, server } from './msw';
import { gate, type Recorded } from './teams-fixtures';

/** An interface of VM 12 as networks/listNetAdapters sends it; vmnic N sits on network 100 + N. */
export const anAdapter = (
  vmnic: number,
  overrides: Partial<NetworkAdapter> = {},
): NetworkAdapter => ({
  id: vmnic,
  vmnic,
  networkId: 100 + vmnic,
  networkName: `net-${vmnic}`,
  cidrBlock: `10.${vmnic}.0.0/24`,
  gatewayIp: `10.${vmnic}.0.1`,
  privateIp: `10.${vmnic}.0.5`,
  macAddress: `fa:16:3e:00:00:0${vmnic}`,
  publicIp: null,
  snatEnabled: true,
  status: 'Active',
  statusMessage: null,
  ...overrides,
});

/** The primary interface, on the region's default network, with a public IP. */
export const PRIMARY = anAdapter(1, { networkName: 'default-frankfurt', publicIp: '203.0.113.7' });

export const AVAILABLE: AvailableNetwork[] = [
  { id: 130, name: 'frontend', cidrBlock: '10.30.0.0/24' },
  { id: 140, name: 'storage-l2', cidrBlock: '192.168.50.0/26' },
];

type Answer = () => Response | Promise<Response>;

/**
 * Serves the interfaces of VM 12 and the calls that change them, recording each. By default the
 * provider is slow: a new interface stays Attaching and a public IP stays unallocated until the
 * test moves them on with `update`; a removal and a release take effect at once.
 */
export function serveInterfaces({
  adapters = [PRIMARY, anAdapter(2)],
  available = AVAILABLE,
}: { adapters?: NetworkAdapter[]; available?: AvailableNetwork[] } = {}) {
  let current = [...adapters];
  const calls: { action: string; id: unknown; body?: Recorded }[] = [];
  const answers: Record<string, Answer | undefined> = {};
  const held = gate();
  let listRequests = 0;

  const record = async (action: string, id: unknown, request: Request) => {
    const text = await request.text();
    calls.push({ action, id, ...(text ? { body: JSON.parse(text) as Recorded } : {}) });
    await held.wait();
    return answers[action]?.();
  };

  server.use(
    http.get(api('networks/listNetAdapters/:id'), () => {
      listRequests += 1;
      return ok(current);
    }),
    http.get(api('virtualMachines/:id/availableNetworks'), () => ok(available)),
    http.post(api('virtualMachines/:id/addNetworkInterfaces'), async ({ request, params }) => {
      const refused = await record('add', params.id, request);
      if (refused) return refused;
      const networkId = (calls.at(-1)!.body as { networkId: number }).networkId;
      const network = available.find((n) => n.id === networkId)!;
      const vmnic = Math.max(...current.map((a) => a.vmnic)) + 1;
      current.push(
        anAdapter(vmnic, {
          id: 50,
          networkId,
          networkName: network.name,
          cidrBlock: network.cidrBlock,
          privateIp: null,
          status: 'Attaching',
        }),
      );
      return ok({ interfaceId: 50 }, 'Accepted');
    }),
    http.delete(
      api('virtualMachines/:id/removeNetworkInterfaces/:networkId'),
      async ({ request, params }) => {
        const refused = await record('remove', params.networkId, request);
        if (refused) return refused;
        current = current.filter((a) => a.networkId !== Number(params.networkId));
        return ok(null, 'Removed');
      },
    ),
    http.post(api('networks/allocatePublicIp/:id'), async ({ request, params }) => {
      const refused = await record('allocate', params.id, request);
      return refused ?? ok(null, 'Accepted');
    }),
    http.delete(api('networks/releasePublicIp/:id'), async ({ request, params }) => {
      const refused = await record('release', params.id, request);
      if (refused) return refused;
      current = current.map((a) => (a.id === Number(params.id) ? { ...a, publicIp: null } : a));
      return ok(null, 'Released');
    }),
  );

  return {
    calls,
    hold: held.hold,
    listRequests: () => listRequests,
    /** What the provider reports next for an interface. */
    update(id: number, patch: Partial<NetworkAdapter>) {
      current = current.map((a) => (a.id === id ? { ...a, ...patch } : a));
    },
    /** Answers an action with this instead of carrying it out. */
    answer(action: 'add' | 'remove' | 'allocate' | 'release', response: Answer) {
      answers[action] = response;
    },
  };
}
