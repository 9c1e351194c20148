import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fillStandard,
  openCreate,
  regionInput,
  submit,
  textbox,
} from './support/network-form-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { aNetwork, serveCidrDetails, serveNetwork } from './support/networks-fixtures';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { pick } from './support/users-fixtures';
import { recordAction } from './support/vms-fixtures';
import { typeText } from './support/typing';

afterEach(() => {
  act(() => notifications.clean());
});

describe('Create Network: types, helper and saving', { timeout: 20_000 }, () => {
  it('shows the gateway, DHCP range and warning of a valid block and fills the fields from it', async () => {
    const { user } = await openCreate();
    const cidr = serveCidrDetails('10.8.0.0/24 overlaps backend (10.8.0.0/24) in this region');
    await pick(user, regionInput(), 'Germany - Frankfurt');
    await typeText(user, textbox('CIDR Block'), '10.8.0.0/24');
    const helper = await screen.findByRole('status', { name: 'CIDR details' });
    expect(await within(helper).findByText('10.8.0.1')).toBeInTheDocument();
    expect(within(helper).getByText('10.8.0.2 - 10.8.0.254')).toBeInTheDocument();
    expect(
      within(helper).getByText('10.8.0.0/24 overlaps backend (10.8.0.0/24) in this region'),
    ).toBeInTheDocument();
    // Asked when typing paused, with the region for the overlap check.
    expect(cidr.queries).toEqual([{ cidr: '10.8.0.0/24', regionId: '4' }]);

    await user.click(within(helper).getByRole('button', { name: 'Use these values' }));
    expect(textbox('Default Route')).toHaveValue('10.8.0.1');
    expect(textbox('DHCP Start')).toHaveValue('10.8.0.2');
    expect(textbox('DHCP End')).toHaveValue('10.8.0.254');
  });

  it('shows a failed CIDR check under its lead', async () => {
    const { user } = await openCreate();
    server.use(
      http.get(api('networks/getCIDRDetails'), () => fail(400, 'The CIDR block is not valid')),
    );
    await typeText(user, textbox('CIDR Block'), '10.8.0.0/24');
    expect(await screen.findByText('Error fetching CIDR details')).toBeInTheDocument();
    expect(screen.getByText('The CIDR block is not valid')).toBeInTheDocument();
  });

  it('creates a standard network and opens it', async () => {
    const { user, router } = await openCreate();
    serveNetwork(aNetwork({ id: 41 }));
    const create = recordAction('post', 'networks/create', () => ok({ id: 41 }, 'Network created'));
    await fillStandard(user);
    await user.click(submit());
    await waitFor(() => expect(locationOf(router)).toBe('/networks/41'));
    expect(create.calls).toEqual([
      {
        id: undefined,
        body: {
          name: 'backend',
          description: 'Databases',
          regionId: 4,
          cidrBlock: '10.20.0.0/24',
          networkType: 'standard',
          snatEnabled: true,
          dhcpServerEnabled: true,
          dhcpStartAddress: '10.20.0.2',
          dhcpEndAddress: '10.20.0.254',
          defaultRouteEnabled: true,
          defaultRoute: '10.20.0.1',
          serveDNSServersEnabled: true,
          dnsServers: '1.1.1.1, 8.8.8.8',
        },
      },
    ]);
    expect(await screen.findByText('Network created')).toBeInTheDocument();
  });

  it('creates a custom network: layer 2 only, no DHCP, SNAT or route sent', async () => {
    const { user } = await openCreate();
    serveNetwork(aNetwork({ id: 42 }));
    const create = recordAction('post', 'networks/create', () => ok({ id: 42 }, 'Network created'));
    const standard = screen.getByRole('radio', { name: 'Standard' });
    expect(standard).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'DHCP Start' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Default Route' })).not.toBeInTheDocument();
    expect(
      screen.getByText(/layer 2 only: no DHCP, no SNAT and no default route/),
    ).toBeInTheDocument();

    await typeText(user, textbox('Network Name'), 'storage-l2');
    await pick(user, regionInput(), 'United States - Virginia');
    await typeText(user, textbox('CIDR Block'), '192.168.50.0/26');
    // A custom network has no gateway or DHCP: none is shown or offered to fill.
    const helper = await screen.findByRole('status', { name: 'CIDR details' });
    expect(await within(helper).findByText('192.168.50.0/26')).toBeInTheDocument();
    expect(within(helper).queryByText('Gateway')).not.toBeInTheDocument();
    expect(within(helper).queryByText('DHCP range')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use these values' })).not.toBeInTheDocument();
    await user.click(submit());
    await waitFor(() => expect(create.calls).toHaveLength(1));
    expect(create.calls[0]!.body).toEqual({
      name: 'storage-l2',
      description: '',
      regionId: 7,
      cidrBlock: '192.168.50.0/26',
      networkType: 'custom',
      snatEnabled: false,
      dhcpServerEnabled: false,
      dhcpStartAddress: null,
      dhcpEndAddress: null,
      defaultRouteEnabled: false,
      defaultRoute: null,
      serveDNSServersEnabled: false,
      dnsServers: null,
    });
  });

  it('shows a 400’s field errors at their fields, cleared by an edit', async () => {
    const { user, router } = await openCreate();
    recordAction('post', 'networks/create', () =>
      fail(400, 'Invalid request', [
        { field: 'cidrBlock', message: '10.20.0.0/24 overlaps backend (10.20.0.0/24)' },
      ]),
    );
    await fillStandard(user);
    await user.click(submit());
    expect(await screen.findByText('Invalid request')).toBeInTheDocument();
    expect(textbox('CIDR Block')).toHaveAccessibleDescription(
      expect.stringContaining('10.20.0.0/24 overlaps backend (10.20.0.0/24)'),
    );
    expect(locationOf(router)).toBe('/createNetwork');
    await user.clear(textbox('CIDR Block'));
    await typeText(user, textbox('CIDR Block'), '10.21.0.0/24');
    expect(
      screen.queryByText('10.20.0.0/24 overlaps backend (10.20.0.0/24)'),
    ).not.toBeInTheDocument();
  });

  it('shows a refusal’s message and keeps the values', async () => {
    const { user } = await openCreate();
    recordAction('post', 'networks/create', () =>
      fail(403, 'Only Admins can create, edit or delete networks'),
    );
    await fillStandard(user);
    await user.click(submit());
    expect(
      await screen.findByText('Only Admins can create, edit or delete networks'),
    ).toBeInTheDocument();
    expect(textbox('Network Name')).toHaveValue('backend');
  });

  it('tells someone who is not an Admin that only Admins create networks', async () => {
    signIn({ isAdmin: false });
    await renderApp('/createNetwork');
    expect(
      await screen.findByText('Only Admins can create, edit or delete networks'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});

describe('Edit network', { timeout: 20_000 }, () => {
  async function openEdit(network = aNetwork()) {
    signIn();
    serveCidrDetails();
    const served = serveNetwork(network);
    const view = await renderApp(`/networks/${network.id}/edit`);
    await screen.findByRole('heading', { level: 2, name: `Edit ${network.name}` });
    return { ...view, served };
  }

  it('starts from the stored network with the region and type locked, and saves without the region', async () => {
    const { user, router } = await openEdit();
    expect(textbox('Network Name')).toHaveValue('backend');
    expect(textbox('Region')).toHaveValue('Germany - Frankfurt');
    expect(textbox('Region')).toBeDisabled();
    expect(screen.getByText('The region cannot be changed after creation')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Standard' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeDisabled();
    expect(
      screen.getByText('The network type cannot be changed after creation'),
    ).toBeInTheDocument();
    expect(textbox('CIDR Block')).toHaveValue('10.20.0.0/24');
    expect(textbox('DHCP Start')).toHaveValue('10.20.0.2');
    expect(textbox('DNS Servers')).toHaveValue('1.1.1.1, 8.8.8.8');
    expect(screen.getByText('480 characters remaining')).toBeInTheDocument();

    const update = recordAction('put', 'networks/update/:id', () => ok(null, 'Network updated'));
    await user.clear(textbox('Network Name'));
    await typeText(user, textbox('Network Name'), 'backend-2');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks/3'));
    expect(update.calls).toEqual([
      {
        id: '3',
        body: {
          name: 'backend-2',
          description: 'Databases and queues',
          cidrBlock: '10.20.0.0/24',
          networkType: 'standard',
          snatEnabled: true,
          dhcpServerEnabled: true,
          dhcpStartAddress: '10.20.0.2',
          dhcpEndAddress: '10.20.0.254',
          defaultRouteEnabled: true,
          defaultRoute: '10.20.0.1',
          serveDNSServersEnabled: true,
          dnsServers: '1.1.1.1, 8.8.8.8',
        },
      },
    ]);
    expect(await screen.findByText('Network updated')).toBeInTheDocument();
  });

  it('shows a 409 from the server', async () => {
    const { user } = await openEdit();
    recordAction('put', 'networks/update/:id', () =>
      fail(409, 'A network with connected VMs cannot be edited or deleted'),
    );
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(
      await screen.findByText('A network with connected VMs cannot be edited or deleted'),
    ).toBeInTheDocument();
  });

  it('offers no form for a network with connected VMs', async () => {
    await openEdit(aNetwork({ connectedVms: 1 }));
    expect(
      screen.getByText('A network with connected VMs cannot be edited or deleted'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('shows Network Not Found for an unknown network', async () => {
    signIn();
    serveNetwork(aNetwork());
    await renderApp('/networks/77/edit');
    expect(await screen.findByRole('heading', { name: 'Network Not Found' })).toBeInTheDocument();
  });
});
