import { screen, waitFor, within } from '@testing-library/react';
import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { rowsOf, serveTeam, signIn, tableTitled } from './support/teams-fixtures';
import { aVmRow, serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const vmsTable = () => tableTitled('Virtual Machines');
const teamVms = Array.from({ length: 12 }, (_, i) =>
  aVmRow(100 + i, { name: `team-vm-${String(i + 1).padStart(2, '0')}` }),
);

describe('Team page: the team’s VMs', { timeout: 15_000 }, () => {
  it('lists the team’s VMs through the VM list, with the VM columns', async () => {
    signIn();
    serveTeam();
    const vms = serveVms({ rows: [aVmRow(1, { name: 'not-in-team' })], teams: { 5: teamVms } });
    await renderApp('/team?id=5');
    expect(await screen.findByText('team-vm-01')).toBeInTheDocument();
    expect(screen.queryByText('not-in-team')).not.toBeInTheDocument();
    expect(vms.queries).toEqual([
      { page: '1', rowsPerPage: '10', sortColumn: 'name', sortDescending: 'false', teamId: '5' },
    ]);
    expect(
      within(vmsTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['NAME', 'STATUS', 'SIZE', 'CORES', 'RAM (GB)', 'CREATED', 'Actions']);
    expect(rowsOf(vmsTable())).toHaveLength(10);
  });

  it('keeps its page, search and sort in the URL apart from the members table’s', async () => {
    signIn();
    const team = serveTeam();
    const vms = serveVms({ teams: { 5: teamVms } });
    const { user, router } = await renderApp('/team?id=5&page=2');
    await screen.findByText('team-vm-01');
    await screen.findByText('Member 106');

    const card = vmsTable().closest('.mantine-Paper-root') as HTMLElement;
    await user.click(within(card).getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('team-vm-11')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/team?id=5&page=2&vmPage=2');
    expect(vms.last()).toMatchObject({ page: '2', teamId: '5' });
    // The members stay on their own page 2.
    expect(team.last()).toEqual({ page: '2', rowsPerPage: '5' });

    await user.click(within(card).getByRole('button', { name: 'STATUS' }));
    await waitFor(() => expect(vms.last()).toMatchObject({ sortColumn: 'status', page: '1' }));
    expect(locationOf(router)).toBe('/team?id=5&page=2&vmSort=status.asc');

    await typeText(user, within(card).getByPlaceholderText('Search virtual machines...'), 'vm-12');
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ vmSearch: 'vm-12', page: 2 }),
    );
    await waitFor(() => expect(rowsOf(vmsTable())).toHaveLength(1));
    expect(screen.getByPlaceholderText('Search team members...')).toHaveValue('');
  });

  it('opens a VM from its row', async () => {
    signIn();
    serveTeam();
    serveVms({ teams: { 5: teamVms } });
    server.use(http.get(api('virtualMachines/details/:id'), () => delay('infinite')));
    const { user, router } = await renderApp('/team?id=5');
    await user.click(await screen.findByText('team-vm-03'));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/102'));
  });

  it('says "No virtual machines found" when the team has no VMs', async () => {
    signIn();
    serveTeam();
    serveVms({ teams: {} });
    await renderApp('/team?id=5');
    expect(await screen.findByText('No virtual machines found')).toBeInTheDocument();
  });

  it('shows a failed VM list under the spec’s lead, the members still shown', async () => {
    signIn();
    serveTeam();
    server.use(http.get(api('virtualMachines/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/team?id=5');
    expect(await screen.findByText('Error fetching virtual machines')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByText('Member 101')).toBeInTheDocument();
  });
});
