import { screen, waitFor, within } from '@testing-library/react';
import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../src/components/date-format';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aTeam, rowsOf, serveTeams, signIn, tableTitled } from './support/teams-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { aVmRow, serveVms } from './support/vms-fixtures';
import { typeText } from './support/typing';

const table = () => tableTitled('Your Virtual Machines');
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const teamFilter = () => screen.getByRole('combobox', { name: 'Team' });

describe('Virtual Machines list', { timeout: 15_000 }, () => {
  it('shows the VMs of the first page by name, with the spec’s columns and widths', async () => {
    signIn();
    serveTeams();
    const vms = serveVms({
      rows: [
        aVmRow(1, { name: 'alpha', status: 'Running', configuration: 'Small', cpu: 6, ram: 10 }),
        aVmRow(2, { name: 'beta', status: 'Provisioning', configuration: 'Micro', cpu: 2, ram: 4 }),
      ],
    });
    await renderApp('/virtualMachines');
    expect(screen.getByRole('heading', { level: 2, name: 'Virtual Machines' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Virtual Machine' })).toBeInTheDocument();
    expect(
      screen.getByText('Manage and monitor your virtual machines across the global network'),
    ).toBeInTheDocument();
    expect(await screen.findByText('alpha')).toBeInTheDocument();
    expect(vms.last()).toEqual({
      page: '1',
      rowsPerPage: '10',
      sortColumn: 'name',
      sortDescending: 'false',
    });

    const headers = within(table()).getAllByRole('columnheader');
    expect(headers.map((th) => th.textContent)).toEqual([
      'NAME',
      'STATUS',
      'SIZE',
      'CORES',
      'RAM (GB)',
      'CREATED',
      'Actions',
    ]);
    expect(headers.map((th) => th.style.width)).toEqual([
      '25%',
      '12%',
      '18%',
      '10%',
      '10%',
      '15%',
      '10%',
    ]);
    expect(screen.getByRole('columnheader', { name: /NAME/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    // CORES and RAM do not sort on the server.
    expect(within(headers[3]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(headers[4]!).queryByRole('button')).not.toBeInTheDocument();

    const [first, second] = rowsOf(table());
    expect(cellsOf(first!)).toEqual([
      'alpha',
      'Running',
      'Small',
      '6',
      '10',
      formatDate(new Date('2026-02-03T10:00:00.000Z')),
      'Details',
    ]);
    expect(cellsOf(second!).slice(0, 5)).toEqual(['beta', 'Provisioning', 'Micro', '2', '4']);
    expect(within(first!).getByRole('link', { name: 'Details of alpha' })).toHaveAttribute(
      'href',
      '/virtualMachineDetails/1',
    );
  });

  it('colours each status as the spec says', async () => {
    signIn();
    serveTeams();
    const statuses = [
      'Running',
      'Stopped',
      'Shutoff',
      'Error',
      'Provisioning',
      'Starting',
      'Stopping',
      'Resizing',
    ] as const;
    serveVms({
      rows: statuses.map((status, i) => aVmRow(i + 1, { name: `vm-${status}`, status })),
    });
    await renderApp('/virtualMachines');
    await screen.findByText('vm-Running');
    const toneOf = (status: string) =>
      within(table())
        .getByText(status, { selector: '[data-status] *, [data-status]' })
        .closest('[data-status]')!
        .getAttribute('data-tone');
    expect(Object.fromEntries(statuses.map((status) => [status, toneOf(status)]))).toEqual({
      Running: 'green',
      Stopped: 'red',
      Shutoff: 'red',
      Error: 'pale-red',
      Provisioning: 'amber',
      Starting: 'blue',
      Stopping: 'blue',
      Resizing: 'blue',
    });
  });

  it('keeps sort, search and page in the URL and asks the server for them', async () => {
    signIn();
    serveTeams();
    const vms = serveVms();
    const { user, router } = await renderApp('/virtualMachines');
    await screen.findByText('vm-01');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('vm-11')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachines?page=2');
    expect(vms.last()).toMatchObject({ page: '2' });

    await user.click(screen.getByRole('button', { name: 'SIZE' }));
    await waitFor(() => expect(vms.last()).toMatchObject({ sortColumn: 'configuration' }));
    expect(vms.last()).toMatchObject({ page: '1', sortDescending: 'false' });
    expect(locationOf(router)).toBe('/virtualMachines?sort=configuration.asc');

    await typeText(user, screen.getByPlaceholderText('Search virtual machines...'), 'vm-2');
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ sort: 'configuration.asc', search: 'vm-2' }),
    );
    await waitFor(() => expect(vms.last()).toMatchObject({ search: 'vm-2', page: '1' }));
    await waitFor(() => expect(rowsOf(table())).toHaveLength(6));
  });

  it('reopens the same view from a copied link', async () => {
    signIn();
    serveTeams();
    const vms = serveVms({ teams: { 3: [aVmRow(40, { name: 'team-web' })] } });
    await renderApp('/virtualMachines?teamId=3&search=web&sort=createdAt.desc');
    expect(await screen.findByText('team-web')).toBeInTheDocument();
    expect(vms.queries).toEqual([
      {
        page: '1',
        rowsPerPage: '10',
        search: 'web',
        sortColumn: 'createdAt',
        sortDescending: 'true',
        teamId: '3',
      },
    ]);
    await waitFor(() => expect(teamFilter()).toHaveValue('Team 3'));
    expect(screen.getByPlaceholderText('Search virtual machines...')).toHaveValue('web');
  });

  it('scopes the list to a team from the team filter, and back to all teams', async () => {
    signIn();
    const teams = serveTeams({
      teams: [aTeam(1, { name: 'Platform' }), aTeam(2, { name: 'Data' })],
    });
    const vms = serveVms({ teams: { 2: [aVmRow(50, { name: 'data-vm' })] } });
    const { user, router } = await renderApp('/virtualMachines?page=2');
    await screen.findByText('vm-11');
    expect(teams.last()).toEqual({ page: '1', rowsPerPage: '100' });
    expect(teamFilter()).toHaveValue('All Teams');
    await user.click(teamFilter());
    expect((await optionsOf(teamFilter())).map((o) => o.textContent)).toEqual([
      'All Teams',
      'Platform',
      'Data',
    ]);
    await user.keyboard('{Escape}');

    await pick(user, teamFilter(), 'Data');
    expect(await screen.findByText('data-vm')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachines?teamId=2');
    expect(vms.last()).toMatchObject({ teamId: '2', page: '1' });
    expect(rowsOf(table())).toHaveLength(1);

    await pick(user, teamFilter(), 'All Teams');
    expect(await screen.findByText('vm-01')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachines');
    expect(vms.last()).not.toHaveProperty('teamId');
  });

  it('says "No virtual machines found" when there are none', async () => {
    signIn();
    serveTeams();
    serveVms({ rows: [] });
    await renderApp('/virtualMachines');
    expect(await screen.findByText('No virtual machines found')).toBeInTheDocument();
  });

  it('shows a failed load in the table under the spec’s lead', async () => {
    signIn();
    serveTeams();
    server.use(http.get(api('virtualMachines/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/virtualMachines');
    expect(await screen.findByText('Error fetching virtual machines')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('opens a VM from its row and the create screen from the button', async () => {
    signIn();
    serveTeams();
    serveVms();
    // Where the clicks lead is not what this is about: those requests never answer.
    server.use(
      http.get(api('virtualMachines/details/:id'), () => delay('infinite')),
      http.get(api('virtualMachines/listCountries'), () => delay('infinite')),
      http.get(api('sshKeys/list'), () => delay('infinite')),
    );
    const { user, router } = await renderApp('/virtualMachines');
    await user.click(await screen.findByText('vm-03'));
    await waitFor(() => expect(locationOf(router)).toBe('/virtualMachineDetails/3'));

    router.history.back();
    await user.click(await screen.findByRole('button', { name: 'Create Virtual Machine' }));
    await waitFor(() => expect(locationOf(router)).toBe('/createVirtualMachine'));
  });
});
