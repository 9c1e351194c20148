import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { AvailableNetwork, NetworkAdapter } from '../../../src/api/contract/networks';
import { api, http, ok, server } from './msw';
import { renderApp } from './render';
import { gate, serveTeams, signIn, type Recorded } from './teams-fixtures';
import { aVmDetails, serveVm } from './vms-fixtures';

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
 * Serves the interfaces of VM 12 and the calls that change them, recording each, as the API does:
 * a new interface stays Attaching until the test moves it on with `update`; a public IP shows
 * from the moment it is reserved and goes at once when released; a removal takes effect at once.
 * `slowRemoval` leaves a removed interface Detaching; `hiddenUntilAllocated` shows a public IP
 * only once the test sets it.
 */
export function serveInterfaces({
  adapters = [PRIMARY, anAdapter(2)],
  available = AVAILABLE,
  slowRemoval = false,
  hiddenUntilAllocated = false,
}: {
  adapters?: NetworkAdapter[];
  available?: AvailableNetwork[];
  slowRemoval?: boolean;
  hiddenUntilAllocated?: boolean;
} = {}) {
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
        const networkId = Number(params.networkId);
        current = slowRemoval
          ? current.map((a) =>
              a.networkId === networkId ? { ...a, status: 'Detaching' as const } : a,
            )
          : current.filter((a) => a.networkId !== networkId);
        return ok(null, 'Removed');
      },
    ),
    http.post(api('networks/allocatePublicIp/:id'), async ({ request, params }) => {
      const refused = await record('allocate', params.id, request);
      if (refused) return refused;
      if (!hiddenUntilAllocated) {
        current = current.map((a) =>
          a.id === Number(params.id) ? { ...a, publicIp: '203.0.113.50' } : a,
        );
      }
      return ok(null, 'IP allocated successfully');
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

/** The rows of the interface table, as shown under any open dialog. */
export const interfaceRows = () =>
  within(screen.getByRole('table', { hidden: true, name: 'Network Interfaces' }))
    .getAllByRole('row', { hidden: true })
    .slice(1);

export const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell', { hidden: true })
    .map((cell) => cell.textContent);

/** Opens the edit page of VM 12 (Stopped unless told otherwise) with its interfaces served. */
export async function openVmEdit(
  options: Parameters<typeof serveInterfaces>[0] = {},
  vm: Parameters<typeof aVmDetails>[0] = { status: 'Stopped' },
) {
  signIn();
  serveTeams();
  const served = serveVm(aVmDetails(vm));
  const interfaces = serveInterfaces(options);
  const view = await renderApp('/virtualMachineDetails/12/edit');
  await screen.findByRole('heading', { level: 2, name: 'Edit web-01' });
  await screen.findByText('default-frankfurt');
  return { ...view, vm: served, interfaces };
}

/** Reloads the interfaces from the table's Refresh (disabled while a load runs, and a moment after). */
export async function refreshInterfaces(user: UserEvent) {
  const refresh = screen.getByRole('button', { name: 'Refresh' });
  await waitFor(() => expect(refresh).toBeEnabled());
  await user.click(refresh);
}
