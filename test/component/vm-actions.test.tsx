import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { VmStatus } from '../../src/api/contract/vms';
import { vmKeys } from '../../src/queries/vms';
import { fail, ok } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { serveTeams, signIn } from './support/teams-fixtures';
import { aVmDetails, recordAction, serveVm, serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const ACTIONS = ['Console', 'Download Private Key', 'Start', 'Stop', 'Reset', 'Upgrade', 'Edit VM'];

const dangerZone = () => screen.getByRole('region', { name: 'Danger zone' });

const deletable: Partial<Record<VmStatus, boolean>> = {
  Stopped: true,
  Shutoff: true,
  Provisioning: false,
  Starting: false,
};

const actionsCard = () =>
  screen
    .getByRole('heading', { level: 3, name: 'Actions' })
    .closest('.mantine-Paper-root') as HTMLElement;

/** The actions offered, each with whether it can be used now. */
const offered = () =>
  Object.fromEntries(
    [...actionsCard().querySelectorAll<HTMLElement>('a, button')]
      .filter((element) => ACTIONS.includes(element.textContent ?? ''))
      .map((element) => [
        element.textContent,
        !(element as HTMLButtonElement).disabled && !element.hasAttribute('data-disabled'),
      ]),
  );

async function openVm(overrides: Parameters<typeof aVmDetails>[0] = {}) {
  signIn();
  const vm = serveVm(aVmDetails(overrides));
  const view = await renderApp('/virtualMachineDetails/12');
  await screen.findByRole('heading', { level: 2, name: 'web-01' });
  return { ...view, vm };
}

describe('VM details: actions by status', { timeout: 15_000 }, () => {
  it('offers a running VM its console, key, stop, reset, upgrade and edit', async () => {
    await openVm();
    expect(offered()).toEqual({
      Console: true,
      'Download Private Key': true,
      Stop: true,
      Reset: true,
      Upgrade: true,
      'Edit VM': true,
    });
    const consoleLink = within(actionsCard()).getByRole('link', { name: 'Console' });
    expect(consoleLink).toHaveAttribute('href', '/virtualMachineConsole/12');
    expect(consoleLink).toHaveAttribute('target', '_blank');
    expect(consoleLink.getAttribute('rel')).toContain('noopener');
  });

  it.each<[VmStatus, Record<string, boolean>]>([
    ['Stopped', { 'Download Private Key': true, Start: true, Upgrade: true, 'Edit VM': true }],
    ['Shutoff', { 'Download Private Key': true, Start: true, Upgrade: true, 'Edit VM': true }],
    ['Provisioning', { 'Download Private Key': false, Upgrade: false, 'Edit VM': false }],
    ['Starting', { 'Download Private Key': true, Upgrade: false, 'Edit VM': true }],
  ])('offers a VM that is %s what its status allows', async (status, expected) => {
    await openVm({ status, consoleAvailable: false });
    expect(offered()).toEqual(expected);
    expect(within(dangerZone()).getByRole('button', { name: 'Delete' })).toHaveProperty(
      'disabled',
      !deletable[status],
    );
  });

  it('offers no console when the provider has none, even while running', async () => {
    await openVm({ consoleAvailable: false });
    expect(offered()).not.toHaveProperty('Console');
    expect(offered()).toHaveProperty('Stop', true);
  });
});

describe('VM details: actions by role', { timeout: 15_000 }, () => {
  it.each<[string, number, string[]]>([
    ['Viewer', 4, []],
    ['Operator', 3, ['Console', 'Download Private Key', 'Stop', 'Reset', 'Edit VM']],
    ['Manager', 2, ['Console', 'Download Private Key', 'Stop', 'Reset', 'Upgrade', 'Edit VM']],
  ])('offers a %s only what the role allows', async (_role, yourRoleId, expected) => {
    await openVm({ yourRoleId });
    expect(Object.keys(offered())).toEqual(expected);
    // Only a Manager (or an Admin) may delete: the Danger zone is theirs alone.
    if (yourRoleId === 2) expect(dangerZone()).toHaveTextContent('Delete this virtual machine');
    else expect(screen.queryByRole('region', { name: 'Danger zone' })).not.toBeInTheDocument();
    const readOnly = within(actionsCard()).queryByText(
      "Your role on this virtual machine's team lets you see it, not change it.",
    );
    if (yourRoleId === 4) {
      expect(screen.queryByRole('button', { name: 'Show password' })).not.toBeInTheDocument();
      expect(readOnly).toBeInTheDocument();
    } else {
      expect(readOnly).not.toBeInTheDocument();
    }
  });
});

describe('VM details: confirmed actions', { timeout: 15_000 }, () => {
  it.each([
    ['Stop', 'stop', 'Running', 'Stopping', 'VM is being stopped'],
    ['Reset', 'reset', 'Running', 'Running', 'VM is being reset'],
    ['Start', 'start', 'Stopped', 'Starting', 'VM is being started'],
  ] as const)(
    '%s asks first, then toasts and reloads the details',
    async (verb, path, from, to, toast) => {
      const { user, vm } = await openVm({ status: from });
      const action = recordAction('post', `virtualMachines/${path}/:id`, () => {
        vm.set({ status: to });
        return ok(null, 'Accepted');
      });
      const requestsBefore = vm.requests();

      await user.click(within(actionsCard()).getByRole('button', { name: verb }));
      const dialog = await screen.findByRole('dialog', { name: `${verb} web-01?` });
      // Cancel sends nothing.
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(action.calls).toEqual([]);

      await user.click(within(actionsCard()).getByRole('button', { name: verb }));
      await user.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: verb }),
      );
      expect(await screen.findByText(toast)).toBeInTheDocument();
      expect(action.calls).toEqual([{ id: '12', body: undefined }]);
      await waitFor(() => expect(vm.requests()).toBeGreaterThan(requestsBefore));
      expect(await screen.findByText(to, { selector: '[data-status] *' })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
  );

  it('keeps the dialog open with the server’s reason when an action is refused', async () => {
    const { user } = await openVm();
    recordAction('post', 'virtualMachines/stop/:id', () =>
      fail(409, 'The VM is busy with another operation; try again when it ends'),
    );
    await user.click(within(actionsCard()).getByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error stopping virtual machine: The VM is busy with another operation; try again when it ends',
    );
    expect(screen.queryByText('VM is being stopped')).not.toBeInTheDocument();
  });

  it('goes to the edit page from Edit VM', async () => {
    const { user, router } = await openVm();
    serveTeams();
    await user.click(within(actionsCard()).getByRole('button', { name: 'Edit VM' }));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/12/edit'));
    expect(await screen.findByRole('textbox', { name: 'VM Name' })).toHaveValue('web-01');
  });
});

describe('VM details: the Danger zone', { timeout: 15_000 }, () => {
  it('keeps Delete out of the everyday actions, in a Danger zone of its own', async () => {
    await openVm();
    expect(within(actionsCard()).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(dangerZone()).toHaveTextContent('Delete this virtual machine');
    expect(screen.getAllByRole('button', { name: 'Delete' })).toEqual([
      within(dangerZone()).getByRole('button', { name: 'Delete' }),
    ]);
  });

  it('keeps the confirm button disabled until the exact name is typed', async () => {
    const { user } = await openVm();
    const remove = recordAction('delete', 'virtualMachines/delete/:id', () => ok(null));
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete web-01?' });
    const field = within(dialog).getByRole('textbox', { name: 'Type web-01 to confirm' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    for (const wrong of ['web-0', 'WEB-01', 'web-01 ', 'web-011']) {
      await user.clear(field);
      await user.type(field, wrong);
      expect(confirm).toBeDisabled();
    }
    await user.click(confirm);
    expect(remove.calls).toEqual([]);
    await user.clear(field);
    await typeText(user, field, 'web-01');
    expect(confirm).toBeEnabled();
  });

  it('deletes once the name is typed, toasts and goes to the VM list', async () => {
    const { user, router, vm, queryClient } = await openVm();
    serveTeams();
    const list = serveVms({ rows: [] });
    const remove = recordAction('delete', 'virtualMachines/delete/:id', () =>
      ok(null, 'Deletion started'),
    );
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete web-01?' });
    expect(dialog).toHaveTextContent('This action cannot be reversed.');
    await typeText(user, within(dialog).getByRole('textbox'), 'web-01');
    const detailRequests = vm.requests();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('VM is being deleted')).toBeInTheDocument();
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachines'));
    expect(remove.calls).toEqual([{ id: '12', body: undefined }]);
    expect(await screen.findByText('No virtual machines found')).toBeInTheDocument();
    expect(list.queries).toHaveLength(1);
    // The deleted VM's details are neither asked for again nor kept.
    expect(vm.requests()).toBe(detailRequests);
    expect(queryClient.getQueryCache().find({ queryKey: vmKeys.detail(12) })).toBeUndefined();
  });

  it('keeps the dialog open with the error when the delete fails', async () => {
    const { user, router } = await openVm();
    recordAction('delete', 'virtualMachines/delete/:id', () =>
      fail(409, 'The VM cannot be deleted while an operation is under way'),
    );
    await user.click(within(dangerZone()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete web-01?' });
    await typeText(user, within(dialog).getByRole('textbox'), 'web-01');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error deleting virtual machine: The VM cannot be deleted while an operation is under way',
    );
    expect(screen.getByRole('dialog', { name: 'Delete web-01?' })).toBeInTheDocument();
    expect(screen.queryByText('VM is being deleted')).not.toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachineDetails/12');
  });
});
