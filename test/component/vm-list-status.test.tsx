import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { locationOf, renderApp } from './support/render';
import { serveTeams, signIn } from './support/teams-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { serveVms } from './support/vms-fixtures';

const statusFilter = () => screen.getByRole('combobox', { name: 'Status' });

describe('Virtual Machines list: the status filter', { timeout: 30_000 }, () => {
  it('narrows the list to a status, in the URL, and back to all statuses', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    const { user, router } = await renderApp('/virtualMachines?page=2');
    await screen.findByText('vm-11', {}, { timeout: 5_000 });
    expect(statusFilter()).toHaveValue('All statuses');
    expect(vms.last()).not.toHaveProperty('status');
    await user.click(statusFilter());
    expect((await optionsOf(statusFilter())).map((o) => o.textContent)).toEqual([
      'All statuses',
      'Running',
      'Stopped',
      'Error',
      'In progress',
    ]);
    await user.keyboard('{Escape}');

    await pick(user, statusFilter(), 'Error');
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines?status=error'));
    await waitFor(() => expect(vms.last()).toMatchObject({ status: 'error', page: '1' }));

    await pick(user, statusFilter(), 'All statuses');
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
    await waitFor(() => expect(vms.last()).not.toHaveProperty('status'));
  });

  it('opens a link with a status', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    await renderApp('/virtualMachines?status=inProgress');
    await waitFor(() => expect(statusFilter()).toHaveValue('In progress'), { timeout: 5_000 });
    expect(vms.last()).toMatchObject({ status: 'inProgress' });
  });

  it('ignores a status it does not know', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    await renderApp('/virtualMachines?status=Exploded');
    await waitFor(() => expect(statusFilter()).toHaveValue('All statuses'), { timeout: 5_000 });
    expect(vms.last()).not.toHaveProperty('status');
  });
});

describe('Virtual Machines list: the public IP filter', { timeout: 30_000 }, () => {
  const chip = () => screen.getByRole('checkbox', { name: 'With a public IP' });

  it('narrows the list to the VMs holding a public IP, in the URL, and lifts it again', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    const { user, router } = await renderApp('/virtualMachines?status=running');
    await waitFor(() => expect(vms.last()).toMatchObject({ status: 'running' }), {
      timeout: 5_000,
    });
    expect(chip()).not.toBeChecked();
    expect(vms.last()).not.toHaveProperty('publicIp');

    await user.click(chip());
    await waitFor(() =>
      expect(locationOf(router)).toBe('/virtualMachines?status=running&publicIp=true'),
    );
    await waitFor(() =>
      expect(vms.last()).toMatchObject({ publicIp: 'true', status: 'running', page: '1' }),
    );
    expect(chip()).toBeChecked();

    await user.click(chip());
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines?status=running'));
    expect(chip()).not.toBeChecked();
  });

  it('opens the Dashboard’s link with the filter on, and ignores a value it does not know', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    const { router } = await renderApp('/virtualMachines?publicIp=true');
    await waitFor(() => expect(chip()).toBeChecked(), { timeout: 5_000 });
    expect(vms.last()).toMatchObject({ publicIp: 'true' });
    await router.navigate({ to: '/virtualMachines', search: { publicIp: 'yes' } as never });
    await waitFor(() => expect(chip()).not.toBeChecked());
  });
});
