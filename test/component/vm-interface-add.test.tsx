import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERFACE_POLL_MS } from '../../src/queries/networks';
import { useFakeTimersForUser } from './support/fake-timers';
import { interfaceRows, openVmEdit } from './support/interfaces-fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { pick } from './support/users-fixtures';
import { recordAction } from './support/vms-fixtures';

afterEach(() => {
  act(() => notifications.clean());
});

const rowTexts = () => interfaceRows().map((row) => row.textContent);

type User = Awaited<ReturnType<typeof openVmEdit>>['user'];

/** Opens the add dialog and picks frontend. */
async function pickFrontend(user: User) {
  await user.click(screen.getByRole('button', { name: 'Add Interface' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Network Interface' });
  await pick(
    user,
    await within(dialog).findByRole('combobox', { name: 'Network' }),
    'frontend (10.30.0.0/24)',
  );
  return dialog;
}

/**
 * Sends the pick; the dialog then waits for the provider. Run on the fake clock, so that the
 * polling the request starts can be stepped through.
 */
async function send(fakeUser: User, dialog: HTMLElement) {
  await fakeUser.click(within(dialog).getByRole('button', { name: 'Add Interface' }));
  await act(() => vi.advanceTimersByTimeAsync(50));
  return screen.getByRole('dialog', { name: 'Attaching Network Interface' });
}

/** Lets the interface list's polling ask again. */
const poll = () => act(() => vi.advanceTimersByTimeAsync(INTERFACE_POLL_MS + 10));

describe('VM edit: adding an interface', { timeout: 20_000 }, () => {
  it('asks for a network first, then waits for the attachment and closes with the toast', async () => {
    const { user, interfaces } = await openVmEdit();
    await user.click(screen.getByRole('button', { name: 'Add Interface' }));
    const picker = await screen.findByRole('dialog', { name: 'Add Network Interface' });
    const select = await within(picker).findByRole('combobox', { name: 'Network' });
    await user.click(within(picker).getByRole('button', { name: 'Add Interface' }));
    expect(within(picker).getByRole('alert')).toHaveTextContent('Please select a network first');
    expect(interfaces.calls).toEqual([]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(select).not.toBeInTheDocument();

    const picked = await pickFrontend(user);
    const waiting = await send(useFakeTimersForUser(), picked);
    expect(interfaces.calls).toEqual([{ action: 'add', id: '12', body: { networkId: 130 } }]);
    expect(waiting).toHaveTextContent('This can take up to 2 minutes');
    expect(within(waiting).getByRole('button', { name: 'Continue Working' })).toBeInTheDocument();
    expect(rowTexts()[2]).toContain('vmnic 3Attaching');
    expect(screen.queryByText('Network interface added successfully')).not.toBeInTheDocument();

    interfaces.update(50, { status: 'Active', privateIp: '10.30.0.5' });
    await poll();
    expect(screen.getByText('Network interface added successfully')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(rowTexts()[2]).toContain('vmnic 3frontend10.30.0.0/24');
    expect(rowTexts()[2]).not.toContain('Attaching');
  });

  it('waits up to 2 minutes, then says so; Continue Working closes and the toast still comes', async () => {
    const { user, interfaces } = await openVmEdit();
    const picked = await pickFrontend(user);
    const fakeUser = useFakeTimersForUser();
    const waiting = await send(fakeUser, picked);
    await act(() => vi.advanceTimersByTimeAsync(119_000));
    expect(waiting).not.toHaveTextContent('taking longer than usual');
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    expect(waiting).toHaveTextContent('This is taking longer than usual');

    await fakeUser.click(within(waiting).getByRole('button', { name: 'Continue Working' }));
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(rowTexts()[2]).toContain('Attaching');

    interfaces.update(50, { status: 'Active' });
    await poll();
    expect(screen.getByText('Network interface added successfully')).toBeInTheDocument();
    expect(rowTexts()[2]).not.toContain('Attaching');
  });

  it('toasts an attachment the provider could not make, with its reason', async () => {
    const { user, interfaces } = await openVmEdit();
    const picked = await pickFrontend(user);
    await send(useFakeTimersForUser(), picked);
    interfaces.update(50, {
      status: 'Error',
      statusMessage: 'The provider could not attach the port',
    });
    await poll();
    expect(
      screen.getByText('Failed to add network interface: The provider could not attach the port'),
    ).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(rowTexts()[2]).toContain('vmnic 3Error');
  });

  it('keeps a refused request in the dialog and toasts it', async () => {
    const { user, interfaces } = await openVmEdit();
    interfaces.answer('add', () => fail(409, 'The VM is already connected to this network'));
    await user.click(screen.getByRole('button', { name: 'Add Interface' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Network Interface' });
    await pick(
      user,
      await within(dialog).findByRole('combobox', { name: 'Network' }),
      'frontend (10.30.0.0/24)',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add Interface' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The VM is already connected to this network',
    );
    expect(screen.getByText('Failed to add network interface')).toBeInTheDocument();
  });

  it('says when no network is available, and refuses to add', async () => {
    const { user, interfaces } = await openVmEdit({ available: [] });
    await user.click(screen.getByRole('button', { name: 'Add Interface' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Network Interface' });
    expect(
      await within(dialog).findByText(
        'No available networks found. Networks must be in the same region as the VM.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add Interface' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'No available networks to connect to',
    );
    expect(interfaces.calls).toEqual([]);
  });

  it('shows a failed load of the available networks under its lead', async () => {
    const { user } = await openVmEdit();
    server.use(
      http.get(api('virtualMachines/:id/availableNetworks'), () => fail(500, 'Provider down')),
    );
    await user.click(screen.getByRole('button', { name: 'Add Interface' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Network Interface' });
    expect(
      await within(dialog).findByText('Error fetching available networks'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Provider down')).toBeInTheDocument();
  });
});

describe(
  'VM edit: a running VM is stopped before its interfaces change',
  { timeout: 20_000 },
  () => {
    it('offers the stop from Add Interface, toasts, reloads 1.5 s later, then adds', async () => {
      const { user, vm } = await openVmEdit({}, { status: 'Running' });
      const stop = recordAction('post', 'virtualMachines/stop/:id', () => {
        vm.set({ status: 'Stopped' });
        return ok(null, 'Accepted');
      });
      await user.click(screen.getByRole('button', { name: 'Add Interface' }));
      const dialog = await screen.findByRole('dialog', { name: 'Stop web-01?' });
      expect(dialog).toHaveTextContent('Stop the VM before changing its network interfaces.');

      const fakeUser = useFakeTimersForUser();
      await fakeUser.click(within(dialog).getByRole('button', { name: 'Stop' }));
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(screen.getByText('VM stopped successfully')).toBeInTheDocument();
      expect(stop.calls).toEqual([{ id: '12', body: undefined }]);
      const afterStop = vm.requests();
      await act(() => vi.advanceTimersByTimeAsync(1_300));
      expect(vm.requests()).toBe(afterStop);
      await act(() => vi.advanceTimersByTimeAsync(300));
      expect(vm.requests()).toBe(afterStop + 1);
      vi.useRealTimers();

      await user.click(screen.getByRole('button', { name: 'Add Interface' }));
      expect(
        await screen.findByRole('dialog', { name: 'Add Network Interface' }),
      ).toBeInTheDocument();
    });

    it('offers the stop from Remove too, and keeps a refused stop in the dialog', async () => {
      const { user, interfaces } = await openVmEdit({}, { status: 'Running' });
      recordAction('post', 'virtualMachines/stop/:id', () =>
        fail(409, 'The VM is busy with another operation; try again when it ends'),
      );
      await user.click(screen.getByRole('button', { name: 'Remove vmnic 2' }));
      const dialog = await screen.findByRole('dialog', { name: 'Stop web-01?' });
      await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'Failed to stop VM: The VM is busy with another operation; try again when it ends',
      );
      expect(screen.getAllByText('Failed to stop VM').length).toBeGreaterThan(0);
      expect(interfaces.calls).toEqual([]);
    });
  },
);
