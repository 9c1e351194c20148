import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anAdapter,
  cellsOf,
  interfaceRows,
  openVmEdit,
  refreshInterfaces,
  PRIMARY,
  serveInterfaces,
} from './support/interfaces-fixtures';
import { api, fail, http, server } from './support/msw';
import { renderApp } from './support/render';
import { serveTeams, signIn } from './support/teams-fixtures';
import { aVmDetails, serveVm } from './support/vms-fixtures';

afterEach(() => {
  act(() => notifications.clean());
});

const interfacesTable = () => screen.getByRole('table', { name: 'Network Interfaces' });

describe('VM edit: the interface list', { timeout: 15_000 }, () => {
  it('lists each interface with its addresses, Not Configured or the NAT-enabled public IP', async () => {
    await openVmEdit();
    expect(
      within(interfacesTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['vmnic', 'Network', 'CIDR', 'Gateway', 'Private IP', 'MAC', 'Public IP', 'Actions']);
    expect(cellsOf(interfaceRows()[0]!).slice(0, 7)).toEqual([
      'vmnic 1Primary',
      'default-frankfurt',
      '10.1.0.0/24',
      '10.1.0.1',
      '10.1.0.5',
      'fa:16:3e:00:00:01',
      '203.0.113.7NAT Enabled',
    ]);
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('Not Configured');
  });

  it('never offers to remove the primary interface; others can be', async () => {
    await openVmEdit();
    expect(
      within(interfaceRows()[0]!).queryByRole('button', { name: /Remove/ }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove vmnic 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove vmnic 2' })).toBeEnabled();
  });

  it('offers a public IP only on a network with SNAT', async () => {
    await openVmEdit({ adapters: [PRIMARY, anAdapter(2, { snatEnabled: false })] });
    expect(
      screen.queryByRole('button', { name: 'Allocate Public IP to vmnic 2' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Release Public IP of vmnic 1' })).toBeEnabled();
  });

  it('disables Add Interface at 5 interfaces, saying why', async () => {
    await openVmEdit({ adapters: [PRIMARY, ...[2, 3, 4, 5].map((n) => anAdapter(n))] });
    expect(screen.getByRole('button', { name: 'Add Interface' })).toBeDisabled();
    expect(screen.getByText('A VM can have at most 5 network interfaces')).toBeInTheDocument();
  });

  it('says "No network interfaces have been found" when there are none', async () => {
    signIn();
    serveTeams();
    serveVm(aVmDetails({ status: 'Stopped' }));
    serveInterfaces({ adapters: [] });
    await renderApp('/virtualMachineDetails/12/edit');
    expect(await screen.findByText('No network interfaces have been found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Interface' })).toBeEnabled();
  });

  it('shows a failed first load under "Error fetching net adapters"', async () => {
    signIn();
    serveTeams();
    serveVm(aVmDetails({ status: 'Stopped' }));
    server.use(http.get(api('networks/listNetAdapters/:id'), () => fail(500, 'Provider down')));
    await renderApp('/virtualMachineDetails/12/edit');
    expect(await screen.findByText('Error fetching net adapters')).toBeInTheDocument();
    expect(screen.getByText('Provider down')).toBeInTheDocument();
  });
});

describe('VM edit: a Viewer', { timeout: 15_000 }, () => {
  it('sees the interfaces read-only', async () => {
    await openVmEdit({}, { yourRoleId: 4 });
    expect(interfaceRows()).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Add Interface' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /Public IP|Remove vmnic/ }),
    ).not.toBeInTheDocument();
  });
});

describe('VM edit: removing an interface', { timeout: 15_000 }, () => {
  it('removes an interface of a stopped VM after confirmation', async () => {
    const { user, interfaces } = await openVmEdit();
    await user.click(screen.getByRole('button', { name: 'Remove vmnic 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove vmnic 2?' });
    expect(dialog).toHaveTextContent('disconnected from net-2');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Network interface removed successfully')).toBeInTheDocument();
    expect(interfaces.calls).toEqual([{ action: 'remove', id: '102' }]);
    expect(interfaceRows()).toHaveLength(1);
  });

  it('keeps a refused removal in the dialog and toasts it', async () => {
    const { user, interfaces } = await openVmEdit();
    interfaces.answer('remove', () =>
      fail(409, 'Stop the VM before changing its network interfaces'),
    );
    await user.click(screen.getByRole('button', { name: 'Remove vmnic 2' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to remove network interface: Stop the VM before changing its network interfaces',
    );
    expect(screen.getByText('Failed to remove network interface')).toBeInTheDocument();
    expect(interfaceRows()).toHaveLength(2);
  });
});

describe('VM edit: a removal the provider works on', { timeout: 15_000 }, () => {
  it('shows the interface Detaching, then toasts a removal that failed', async () => {
    const { user, interfaces } = await openVmEdit({ slowRemoval: true });
    await user.click(screen.getByRole('button', { name: 'Remove vmnic 2' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(cellsOf(interfaceRows()[1]!)[0]).toBe('vmnic 2Detaching'));
    expect(screen.queryByText(/Network interface removed/)).not.toBeInTheDocument();

    interfaces.update(2, { status: 'Active', statusMessage: 'Removal failed: the port is busy' });
    await refreshInterfaces(user);
    expect(
      await screen.findByText(
        'Failed to remove network interface: Removal failed: the port is busy',
      ),
    ).toBeInTheDocument();
    expect(interfaceRows()).toHaveLength(2);
  });
});

describe('VM details: the read-only interface list', { timeout: 15_000 }, () => {
  it('shows the interfaces with their public IPs and no actions', async () => {
    signIn();
    serveVm();
    serveInterfaces();
    await renderApp('/virtualMachineDetails/12');
    await screen.findByText('default-frankfurt');
    expect(
      within(interfacesTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['vmnic', 'Network', 'CIDR', 'Gateway', 'Private IP', 'MAC', 'Public IP']);
    expect(cellsOf(interfaceRows()[0]!)[6]).toBe('203.0.113.7NAT Enabled');
    expect(cellsOf(interfaceRows()[1]!)).toEqual([
      'vmnic 2',
      'net-2',
      '10.2.0.0/24',
      '10.2.0.1',
      '10.2.0.5',
      'fa:16:3e:00:00:02',
      'Not Configured',
    ]);
    expect(
      screen.queryByRole('button', { name: /Public IP|Remove|Add Interface/ }),
    ).not.toBeInTheDocument();
  });

  it('says "No network interfaces have been found" when there are none', async () => {
    signIn();
    serveVm();
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('No network interfaces have been found')).toBeInTheDocument();
  });

  it('shows a failed load under "Error fetching net adapters"', async () => {
    signIn();
    serveVm();
    server.use(http.get(api('networks/listNetAdapters/:id'), () => fail(500, 'Provider down')));
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('Error fetching net adapters')).toBeInTheDocument();
    expect(screen.getByText('Provider down')).toBeInTheDocument();
  });
});
