import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anAdapter,
  cellsOf,
  interfaceRows,
  openVmEdit,
  PRIMARY,
  refreshInterfaces,
} from './support/interfaces-fixtures';
import { fail } from './support/msw';

afterEach(() => {
  act(() => notifications.clean());
});

describe('VM edit: public IPs', { timeout: 15_000 }, () => {
  it('allocates a public IP on a running VM after confirmation: the address, NAT Enabled and a toast', async () => {
    const { user, interfaces } = await openVmEdit({}, { status: 'Running' });
    await user.click(screen.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Allocate a public IP to vmnic 2?' });
    expect(dialog).toHaveTextContent('translated to its private address 10.2.0.5');
    await user.click(within(dialog).getByRole('button', { name: 'Allocate' }));
    expect(await screen.findByText('IP allocated successfully')).toBeInTheDocument();
    expect(interfaces.calls).toEqual([{ action: 'allocate', id: '2' }]);
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('203.0.113.50NAT Enabled');
    expect(screen.getByRole('button', { name: 'Release Public IP of vmnic 2' })).toBeEnabled();
  });

  it('waits for an address the provider has yet to give, then toasts', async () => {
    const { user, interfaces } = await openVmEdit({ hiddenUntilAllocated: true });
    await user.click(screen.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Allocate' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('Allocating...');
    expect(screen.queryByText('IP allocated successfully')).not.toBeInTheDocument();

    interfaces.update(2, { publicIp: '203.0.113.8' });
    await refreshInterfaces(user);
    expect(await screen.findByText('IP allocated successfully')).toBeInTheDocument();
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('203.0.113.8NAT Enabled');
  });

  it('toasts a provider that could not allocate, with its reason, kept on the row', async () => {
    const { user, interfaces } = await openVmEdit({
      hiddenUntilAllocated: true,
      adapters: [PRIMARY, anAdapter(2, { statusMessage: 'Public IP allocation failed: earlier' })],
    });
    await user.click(screen.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Allocate' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The message of an earlier failure is not this allocation's.
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('Allocating...');
    interfaces.update(2, {
      statusMessage: 'Public IP allocation failed: No public IP address is left in this region',
    });
    await refreshInterfaces(user);
    expect(
      await screen.findByText(
        'Failed to allocate IP: Public IP allocation failed: No public IP address is left in this region',
      ),
    ).toBeInTheDocument();
    expect(cellsOf(interfaceRows()[1]!)[1]).toBe(
      'net-2Public IP allocation failed: No public IP address is left in this region',
    );
    expect(cellsOf(interfaceRows()[1]!)[6]).toBe('Not Configured');
  });

  it('keeps a refused allocation in the dialog and toasts it', async () => {
    const { user, interfaces } = await openVmEdit();
    interfaces.answer('allocate', () =>
      fail(409, 'A public IP needs a standard network (with SNAT)'),
    );
    await user.click(screen.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Allocate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to allocate IP: A public IP needs a standard network (with SNAT)',
    );
    expect(screen.getByText('Failed to allocate IP')).toBeInTheDocument();
  });

  it('releases a public IP after confirmation', async () => {
    const { user, interfaces } = await openVmEdit({}, { status: 'Running' });
    await user.click(screen.getByRole('button', { name: 'Release Public IP of vmnic 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release the public IP of vmnic 1?' });
    expect(dialog).toHaveTextContent('203.0.113.7 goes back to the pool');
    await user.click(within(dialog).getByRole('button', { name: 'Release' }));
    expect(await screen.findByText('IP deallocated successfully')).toBeInTheDocument();
    expect(interfaces.calls).toEqual([{ action: 'release', id: '1' }]);
    expect(cellsOf(interfaceRows()[0]!)[6]).toBe('Not Configured');
  });

  it('keeps a refused release in the dialog and toasts it', async () => {
    const { user, interfaces } = await openVmEdit();
    interfaces.answer('release', () => fail(409, 'The interface has no public IP'));
    await user.click(screen.getByRole('button', { name: 'Release Public IP of vmnic 1' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Release' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to deallocate IP: The interface has no public IP',
    );
    expect(screen.getByText('Failed to deallocate IP')).toBeInTheDocument();
  });
});
