import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFakeTimersForUser } from './support/fake-timers';
import { api, fail, http, ok, server } from './support/msw';
import {
  aCustomNetwork,
  aNetwork,
  serveNetwork,
  serveNetworks,
  serveRegions,
} from './support/networks-fixtures';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { recordAction } from './support/vms-fixtures';
import { typeText } from './support/typing';

afterEach(() => {
  act(() => notifications.clean());
});

/** The value shown under a term of the information card. */
const valueOf = (term: string) => document.querySelector(`[data-term="${term}"]`)!;

const dangerZone = () => screen.getByRole('region', { name: 'Danger zone' });

const VMS = [
  { id: 12, name: 'web-01', privateIp: '10.20.0.2' },
  { id: 13, name: 'web-02', privateIp: '10.20.0.3' },
];

async function openDetails(
  network = aNetwork(),
  vms = VMS,
  user: Parameters<typeof signIn>[0] = {},
) {
  signIn(user);
  const served = serveNetwork(network, vms);
  const view = await renderApp(`/networks/${network.id}`);
  await screen.findByRole('heading', { level: 2, name: network.name });
  return { ...view, served };
}

describe('Network details', { timeout: 15_000 }, () => {
  it('shows the information card, the IP usage and the connected VMs of a standard network', async () => {
    await openDetails(aNetwork({ usedIPAddresses: 2, totalIPAddresses: 253, connectedVms: 2 }));
    expect(valueOf('Name')).toHaveTextContent('backend');
    expect(valueOf('Region')).toHaveTextContent('Germany - Frankfurt');
    expect(valueOf('Description')).toHaveTextContent('Databases and queues');
    expect(valueOf('Network Type')).toHaveTextContent('Standard');
    expect(valueOf('CIDR Block')).toHaveTextContent('10.20.0.0/24');
    expect(valueOf('Gateway')).toHaveTextContent('10.20.0.1');
    expect(valueOf('DNS Servers')).toHaveTextContent('1.1.1.18.8.8.8');
    expect(valueOf('SNAT')).toHaveTextContent('Enabled (203.0.113.10)');
    expect(valueOf('DHCP Pools')).toHaveTextContent('10.20.0.2 - 10.20.0.254');
    expect(valueOf('Created At')).toHaveTextContent('2026');
    expect(valueOf('Updated At')).toHaveTextContent('2026');

    expect(screen.getByText('2 of 253 IP addresses used')).toBeInTheDocument();
    expect(screen.getByText('1%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'IP usage' })).toHaveAttribute(
      'aria-valuenow',
      '1',
    );

    const vmsTable = await screen.findByRole('table', { name: 'Connected VMs' });
    await within(vmsTable).findByText('web-01');
    const rows = within(vmsTable).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'web-0110.20.0.2Details',
      'web-0210.20.0.3Details',
    ]);
  });

  it('shows a custom network without gateway, DNS, SNAT or pools, and a block list', async () => {
    await openDetails(aCustomNetwork({ cidrBlock: '192.168.50.0/26, 192.168.60.0/26' }), []);
    expect(valueOf('Network Type')).toHaveTextContent('Custom');
    expect(valueOf('CIDR Block')).toHaveTextContent('192.168.50.0/26192.168.60.0/26');
    expect(valueOf('Gateway')).toHaveTextContent('None');
    expect(valueOf('DNS Servers')).toHaveTextContent('None');
    expect(valueOf('SNAT')).toHaveTextContent('Disabled');
    expect(valueOf('DHCP Pools')).toHaveTextContent('None');
    // A layer 2 network manages no addresses: no "0 of 0 used, 0%" that reads as empty.
    expect(screen.getByText('No addresses are managed on a layer 2 network')).toBeInTheDocument();
    expect(screen.getByText(/0 VMs are connected; their guests set their own/)).toBeInTheDocument();
    expect(screen.queryByText(/IP addresses used/)).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'IP usage' })).not.toBeInTheDocument();
    expect(await screen.findByText('No VMs are connected to this network')).toBeInTheDocument();
  });

  it('opens a connected VM from its row', async () => {
    const { user, router } = await openDetails();
    server.use(http.get(api('virtualMachines/details/:id'), () => new Promise(() => {})));
    await user.click(await screen.findByText('web-02'));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/13'));
  });

  it('goes to the edit page from Edit', async () => {
    const { user, router } = await openDetails(aNetwork(), []);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks/3/edit'));
  });

  it('disables Edit and Delete, saying why, while VMs are connected', async () => {
    await openDetails(aNetwork({ connectedVms: 2 }));
    expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
    expect(within(dangerZone()).getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(
      screen.getAllByText('A network with connected VMs cannot be edited or deleted'),
    ).toHaveLength(2);
  });

  it('keeps Delete in a Danger zone apart from Edit', async () => {
    await openDetails(aNetwork(), []);
    const zone = dangerZone();
    expect(zone).toHaveTextContent('Delete this network');
    expect(within(zone).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    // The only Delete on the page is the Danger zone's.
    expect(screen.getAllByRole('button', { name: 'Delete' })).toEqual([
      within(zone).getByRole('button', { name: 'Delete' }),
    ]);
  });

  it('confirms a delete only once the network’s exact name is typed', async () => {
    const { user } = await openDetails(aNetwork(), []);
    const remove = recordAction('delete', 'networks/delete/:id', () => ok(null));
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete backend?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    const field = within(dialog).getByRole('textbox', { name: 'Type backend to confirm' });
    expect(confirm).toBeDisabled();
    await typeText(user, field, 'Backend');
    expect(confirm).toBeDisabled();
    await user.clear(field);
    await typeText(user, field, 'backen');
    expect(confirm).toBeDisabled();
    await user.click(confirm);
    expect(remove.calls).toEqual([]);
    // Cancel forgets what was typed.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    expect(
      within(await screen.findByRole('dialog')).getByRole('textbox', {
        name: 'Type backend to confirm',
      }),
    ).toHaveValue('');
  });

  it('offers no Edit or Delete to someone who is not an Admin', async () => {
    await openDetails(aNetwork(), [], { isAdmin: false });
    expect(screen.getByText('Network Information')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes after confirmation: toast, a 1 s wait, the call, then the list', async () => {
    const { user, router, served } = await openDetails(aNetwork(), []);
    serveRegions();
    serveNetworks([]);
    const remove = recordAction('delete', 'networks/delete/:id', () => ok(null, 'Network deleted'));
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete backend?' });
    const detailRequests = served.requests();
    expect(dialog).toHaveTextContent('This action cannot be reversed.');
    await typeText(user, within(dialog).getByRole('textbox'), 'backend');

    const fakeUser = useFakeTimersForUser();
    await fakeUser.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Network is being deleted')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(990));
    expect(remove.calls).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(remove.calls).toEqual([{ id: '3', body: undefined }]);
    vi.useRealTimers();

    await waitFor(() => expect(locationOf(router)).toBe('/networks'));
    expect(await screen.findByText('No networks found')).toBeInTheDocument();
    // The deleted network's details are not asked for again (they would answer 404).
    expect(served.requests()).toBe(detailRequests);
    expect(screen.queryByText('Network not found')).not.toBeInTheDocument();
  });

  it('keeps a refused delete in the dialog with the lead and the server’s reason', async () => {
    const { user, router } = await openDetails(aNetwork(), []);
    recordAction('delete', 'networks/delete/:id', () =>
      fail(409, 'A network with connected VMs cannot be edited or deleted'),
    );
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete backend?' });
    await typeText(user, within(dialog).getByRole('textbox'), 'backend');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // The 1 s wait runs on the real clock here.
    expect(await within(dialog).findByRole('alert', {}, { timeout: 3_000 })).toHaveTextContent(
      'Error deleting network: A network with connected VMs cannot be edited or deleted',
    );
    expect(locationOf(router)).toBe('/networks/3');
  });

  it('shows "Network Not Found" for an unknown id and for one that is not a number', async () => {
    signIn();
    serveNetwork(aNetwork());
    const { router } = await renderApp('/networks/99');
    expect(await screen.findByRole('heading', { name: 'Network Not Found' })).toBeInTheDocument();
    expect(screen.getByText('The requested network could not be found.')).toBeInTheDocument();

    act(() => router.history.push('/networks/abc'));
    await waitFor(() => expect(locationOf(router)).toBe('/networks/abc'));
    expect(await screen.findByRole('heading', { name: 'Network Not Found' })).toBeInTheDocument();
  });

  it('shows a failed load under the spec’s lead', async () => {
    signIn();
    server.use(
      http.get(api('networks/:id'), () => fail(500, 'Database unavailable')),
      http.get(api('networks/:id/vmsForNetwork'), () => ok([])),
    );
    await renderApp('/networks/3');
    expect(await screen.findByText('Error fetching networks')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
  });

  it('shows a failed connected-VMs load under its lead, with the network still shown', async () => {
    signIn();
    serveNetwork(aNetwork());
    server.use(http.get(api('networks/:id/vmsForNetwork'), () => fail(500, 'Provider down')));
    await renderApp('/networks/3');
    expect(await screen.findByText('Error fetching network VMs')).toBeInTheDocument();
    expect(screen.getByText('Provider down')).toBeInTheDocument();
    expect(screen.getByText('Network Information')).toBeInTheDocument();
  });
});
