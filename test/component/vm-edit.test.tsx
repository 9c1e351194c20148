import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersForUser } from './support/fake-timers';
import { fail, ok } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aTeam, serveTeams, signIn } from './support/teams-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { aVmDetails, recordAction, serveVm, serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const nameInput = () => screen.getByRole('textbox', { name: 'VM Name' });
const teamInput = () => screen.getByRole('combobox', { name: 'Team Assignment' });
const save = () => screen.getByRole('button', { name: 'Save Changes' });

const TEAMS = [aTeam(5, { name: 'Platform' }), aTeam(6, { name: 'Data' })];

async function openEdit(overrides: Parameters<typeof aVmDetails>[0] = {}) {
  signIn();
  const vm = serveVm(aVmDetails(overrides));
  const teams = serveTeams({ teams: TEAMS });
  const edit = recordAction('put', 'virtualMachines/edit/:id', () => {
    const body = edit.calls.at(-1)!.body as { name?: string; teamId?: number | null };
    vm.set({
      virtualMachine: {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.teamId !== undefined
          ? {
              teamId: body.teamId,
              teamName: TEAMS.find((team) => team.id === body.teamId)?.name ?? null,
            }
          : {}),
      },
    });
    return ok(null, 'VM updated successfully');
  });
  const view = await renderApp('/virtualMachineDetails/12/edit');
  await screen.findByRole('heading', { level: 2, name: 'Edit web-01' });
  return { ...view, vm, teams, edit };
}

describe('VM edit', { timeout: 15_000 }, () => {
  it('shows the name and team, with Save Changes only once something changed', async () => {
    const { user, teams } = await openEdit();
    expect(nameInput()).toHaveValue('web-01');
    expect(teamInput()).toHaveValue('Platform');
    expect(save()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(teams.queries[0]).toEqual({ page: '1', rowsPerPage: '10' });

    await user.click(teamInput());
    await waitFor(async () =>
      expect((await optionsOf(teamInput())).map((o) => o.textContent)).toEqual([
        'Select a team',
        'Platform',
        'Data',
      ]),
    );
    await user.keyboard('{Escape}');

    await typeText(user, nameInput(), 'x');
    expect(save()).toBeEnabled();
    await user.type(nameInput(), '{Backspace}');
    expect(save()).toBeDisabled();
  });

  it('says "No changes made" when only blanks around the name differ, and sends nothing', async () => {
    const { user, edit } = await openEdit();
    await typeText(user, nameInput(), '  ');
    expect(save()).toBeEnabled();
    await user.click(save());
    expect(await screen.findByText('No changes made')).toBeInTheDocument();
    expect(edit.calls).toEqual([]);
    expect(nameInput()).toHaveValue('web-01');
  });

  it('sends only the trimmed name when only the name changed', async () => {
    const { user, edit } = await openEdit();
    await user.clear(nameInput());
    await typeText(user, nameInput(), '  web-02  ');
    await user.click(save());
    expect(await screen.findByText('VM updated successfully')).toBeInTheDocument();
    expect(edit.calls).toEqual([{ id: '12', body: { name: 'web-02' } }]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Edit web-02' }),
    ).toBeInTheDocument();
    expect(nameInput()).toHaveValue('web-02');
    expect(save()).toBeDisabled();
  });

  it('sends only the team when only the team changed; "Select a team" means none', async () => {
    const { user, edit } = await openEdit();
    await pick(user, teamInput(), 'Data');
    await user.click(save());
    expect(await screen.findByText('VM updated successfully')).toBeInTheDocument();
    expect(edit.calls).toEqual([{ id: '12', body: { teamId: 6 } }]);
    await waitFor(() => expect(save()).toBeDisabled());
    expect(teamInput()).toHaveValue('Data');

    await pick(user, teamInput(), 'Select a team');
    await user.click(save());
    await waitFor(() => expect(edit.calls).toHaveLength(2));
    expect(edit.calls[1]).toEqual({ id: '12', body: { teamId: null } });
  });

  it('searches the teams on the server as one types', async () => {
    const { user, teams } = await openEdit();
    await user.click(teamInput());
    await user.clear(teamInput());
    await user.keyboard('dat');
    await waitFor(() =>
      expect(teams.last()).toEqual({ page: '1', rowsPerPage: '10', search: 'dat' }),
    );
  });

  it('toasts a failed save and keeps the values, with the reason inline', async () => {
    const { user } = await openEdit();
    recordAction('put', 'virtualMachines/edit/:id', () =>
      fail(403, 'You do not have permission to do that'),
    );
    await user.clear(nameInput());
    await typeText(user, nameInput(), 'web-02');
    await user.click(save());
    expect(await screen.findByText('You do not have permission to do that')).toBeInTheDocument();
    expect(screen.getAllByText('Failed to update VM').length).toBeGreaterThan(0);
    expect(nameInput()).toHaveValue('web-02');
  });

  it('refuses a VM still being built: toast and back', async () => {
    signIn();
    serveVm(aVmDetails({ status: 'Provisioning' }));
    serveTeams();
    serveVms({ rows: [] });
    const { router } = await renderApp('/virtualMachineDetails/12/edit');
    expect(await screen.findByText('VM is still provisioning')).toBeInTheDocument();
    // Back to the VM (opened by its address, there is no page before this one).
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/12'));
    expect(screen.queryByRole('textbox', { name: 'VM Name' })).not.toBeInTheDocument();
  });

  it('shows a Viewer no form: the role may not edit the VM', async () => {
    await openEdit({ yourRoleId: 4 });
    expect(screen.getByText('You do not have permission to do that')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'VM Name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop VM' })).not.toBeInTheDocument();
  });

  it('goes back to the VM from Cancel when opened by its address', async () => {
    const { user, router } = await openEdit();
    serveVms({ rows: [] });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/12'));
    expect(await screen.findByRole('heading', { level: 2, name: 'web-01' })).toBeInTheDocument();
    expect(screen.queryByText('No virtual machines found')).not.toBeInTheDocument();
  });

  it('goes back to the VM from the back arrow when opened by its address', async () => {
    const { user, router } = await openEdit();
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/12'));
  });

  it('goes back to the VM’s details from Cancel after Edit VM', async () => {
    signIn();
    serveVm();
    serveTeams({ teams: TEAMS });
    const { user, router } = await renderApp('/virtualMachineDetails/12');
    await user.click(await screen.findByRole('button', { name: 'Edit VM' }));
    await screen.findByRole('heading', { level: 2, name: 'Edit web-01' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/12'));
    expect(await screen.findByRole('heading', { level: 2, name: 'web-01' })).toBeInTheDocument();
  });
});

describe('VM edit: stop', { timeout: 15_000 }, () => {
  it('stops after confirmation, toasts, and reloads the VM 1.5 s later', async () => {
    const { user, vm } = await openEdit();
    const stop = recordAction('post', 'virtualMachines/stop/:id', () => {
      vm.set({ status: 'Stopped' });
      return ok(null, 'Accepted');
    });
    await user.click(screen.getByRole('button', { name: 'Stop VM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop web-01?' });

    const fakeUser = useFakeTimersForUser();
    await fakeUser.click(within(dialog).getByRole('button', { name: 'Stop' }));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByText('VM stopped successfully')).toBeInTheDocument();
    expect(stop.calls).toEqual([{ id: '12', body: undefined }]);
    // The stop's own reload has happened; the page's reload comes 1.5 s after the stop.
    const afterStop = vm.requests();
    await act(() => vi.advanceTimersByTimeAsync(1_300));
    expect(vm.requests()).toBe(afterStop);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(vm.requests()).toBe(afterStop + 1);
    expect(screen.queryByRole('button', { name: 'Stop VM' })).not.toBeInTheDocument();
  });

  it('toasts a refused stop and keeps the dialog with the reason', async () => {
    const { user } = await openEdit();
    recordAction('post', 'virtualMachines/stop/:id', () =>
      fail(409, 'The VM is busy with another operation; try again when it ends'),
    );
    await user.click(screen.getByRole('button', { name: 'Stop VM' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to stop VM: The VM is busy with another operation; try again when it ends',
    );
    expect(screen.getAllByText('Failed to stop VM').length).toBeGreaterThan(0);
  });

  it('offers no Stop VM for a VM that is not running', async () => {
    await openEdit({ status: 'Stopped' });
    expect(screen.queryByRole('button', { name: 'Stop VM' })).not.toBeInTheDocument();
  });
});
