import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersForUser } from './support/fake-timers';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aTeam, recordBodies, rowsOf, serveTeams, signIn } from './support/teams-fixtures';

const table = () => screen.getByRole('table');
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

// Whole journeys through the real router and query client: slow on a busy machine.
describe('Teams list', { timeout: 15_000 }, () => {
  it('shows the Unassigned row first, then the page of teams, 10 a page', async () => {
    signIn();
    const teams = serveTeams();
    await renderApp('/teams');
    expect(screen.getByRole('heading', { level: 2, name: 'Teams' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Teams' })).toBeInTheDocument();
    expect(screen.getByText('Manage teams and their resource allocations')).toBeInTheDocument();
    expect(await screen.findByText('Team 1')).toBeInTheDocument();

    expect(teams.queries).toEqual([{ page: '1', rowsPerPage: '10' }]);
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Users', 'VMs', 'Actions']);
    const rows = rowsOf(table());
    expect(rows).toHaveLength(11);
    expect(cellsOf(rows[0]!)).toEqual(['Unassigned', '3', '4', '']);
    expect(cellsOf(rows[1]!)).toEqual(['Team 1', '1', '2', '']);
    expect(cellsOf(rows[10]!)).toEqual(['Team 10', '10', '20', '']);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search teams...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();

    // Every team has its trash; the Unassigned row has none.
    expect(within(rows[1]!).getByRole('button', { name: 'Delete Team 1' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('does not open the Unassigned row, by click or keyboard', async () => {
    signIn();
    serveTeams();
    const { user, router } = await renderApp('/teams');
    const unassigned = (await screen.findByText('Unassigned')).closest('tr')!;
    expect(unassigned).not.toHaveAttribute('tabindex');
    await user.click(unassigned);
    unassigned.focus();
    await user.keyboard('{Enter}');
    expect(locationOf(router)).toBe('/teams');
  });

  it('opens a team from its row, by click or Enter', async () => {
    signIn();
    // The team page is not what this is about (registered first: teams/list must win).
    server.use(
      http.get(api('teams/:id'), () => fail(404, 'Team not found')),
      http.get(api('virtualMachines/list'), () => ok({ data: [], totalPages: 1 })),
    );
    serveTeams();
    const { user, router } = await renderApp('/teams');
    await user.click(await screen.findByText('Team 3'));
    await waitFor(() => expect(locationOf(router)).toBe('/team?id=3'));

    await act(() => router.navigate({ to: '/teams' }));
    const row = (await screen.findByText('Team 4')).closest('tr')!;
    row.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(locationOf(router)).toBe('/team?id=4'));
  });

  it('goes to the create screen from Create Team', async () => {
    signIn();
    serveTeams();
    const { user, router } = await renderApp('/teams');
    await user.click(screen.getByRole('button', { name: 'Create Team' }));
    await waitFor(() => expect(locationOf(router)).toBe('/createEditTeam'));
  });

  it('offers no Create Team and no trash to a user who is not an Admin', async () => {
    signIn({ isAdmin: false });
    serveTeams({ teams: [aTeam(1), aTeam(2)] });
    await renderApp('/teams');
    await screen.findByText('Team 1');
    expect(screen.queryByRole('button', { name: 'Create Team' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(cellsOf(rowsOf(table())[1]!)).toEqual(['Team 1', '1', '2']);
  });

  it('searches once typing pauses, back on page 1, sending the search', async () => {
    signIn();
    const teams = serveTeams({
      teams: [aTeam(40, { name: 'Ops' }), ...Array.from({ length: 25 }, (_, i) => aTeam(i + 1))],
    });
    const { user, router } = await renderApp('/teams?page=3');
    await screen.findByText('Team 20');
    expect(teams.last()).toEqual({ page: '3', rowsPerPage: '10' });

    await user.type(screen.getByPlaceholderText('Search teams...'), 'ops');
    await waitFor(() => expect(locationOf(router)).toBe('/teams?search=ops'));
    // The typing pause, then the list's own delay, then the answer.
    expect(await screen.findByText('Ops', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(teams.queries.slice(1)).toEqual([{ page: '1', rowsPerPage: '10', search: 'ops' }]);
    expect(screen.queryByText('Team 20')).not.toBeInTheDocument();
    expect(rowsOf(table())).toHaveLength(2);
    // The Unassigned row stays on top of any result.
    expect(cellsOf(rowsOf(table())[0]!)[0]).toBe('Unassigned');
  });

  it('says "No teams found" under the Unassigned row when nothing matches', async () => {
    signIn();
    serveTeams({ teams: [] });
    await renderApp('/teams?search=nothing');
    expect(await screen.findByText('No teams found')).toBeInTheDocument();
    expect(cellsOf(rowsOf(table())[0]!)).toEqual(['Unassigned', '3', '4', '']);
  });

  it('pages with Next and Previous, keeping the page in the URL', async () => {
    signIn();
    const teams = serveTeams();
    const { user, router } = await renderApp('/teams');
    await screen.findByText('Team 1');

    await user.click(screen.getByRole('button', { name: /Next/ }));
    // After the list's load delay.
    expect(await screen.findByText('Team 11', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/teams?page=2');
    expect(teams.last()).toEqual({ page: '2', rowsPerPage: '10' });
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Previous/ }));
    expect(await screen.findByText('Team 1', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/teams');
  });

  it('reloads 200 ms after the page changes, not before', async () => {
    signIn();
    const teams = serveTeams();
    const { router } = await renderApp('/teams');
    await screen.findByText('Team 1');
    expect(teams.queries).toHaveLength(1);

    const user = useFakeTimersForUser();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(locationOf(router)).toBe('/teams?page=2');
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(teams.queries).toHaveLength(1);
    // Meanwhile the rows on screen are the old page, marked as being refreshed.
    expect(screen.getByText('Team 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(teams.queries).toHaveLength(2);
    expect(teams.last()).toEqual({ page: '2', rowsPerPage: '10' });
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.getByText('Team 11')).toBeInTheDocument();
  });

  it('asks for a search 200 ms after the typing stops, not twice that', async () => {
    signIn();
    const teams = serveTeams({ teams: [aTeam(40, { name: 'Ops' }), aTeam(1)] });
    const { router } = await renderApp('/teams');
    await screen.findByText('Team 1');

    const user = useFakeTimersForUser();
    await user.type(screen.getByPlaceholderText('Search teams...'), 'ops');
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(teams.queries).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(70));
    expect(locationOf(router)).toBe('/teams?search=ops');
    expect(teams.queries).toHaveLength(2);
    expect(teams.last()).toEqual({ page: '1', rowsPerPage: '10', search: 'ops' });
  });

  it('shows a failed load in the table, with the Unassigned counts at 0', async () => {
    signIn();
    server.use(http.get(api('teams/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/teams');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching teams');
    expect(alert).toHaveTextContent('Database unavailable');
    const rows = rowsOf(table());
    expect(rows).toHaveLength(1);
    expect(cellsOf(rows[0]!)).toEqual(['Unassigned', '0', '0', '']);
    expect(screen.queryByText(/Page 1 of/)).not.toBeInTheDocument();
  });

  describe('delete', () => {
    it('asks first, without opening the team', async () => {
      signIn();
      serveTeams();
      const { user, router } = await renderApp('/teams');
      await user.click(await screen.findByRole('button', { name: 'Delete Team 2' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Team 2?' });
      expect(dialog).toHaveTextContent(
        'This team will be deleted completely. This action cannot be reversed.',
      );
      expect(locationOf(router)).toBe('/teams');

      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(locationOf(router)).toBe('/teams');
    });

    it('deletes, shows Deleting... meanwhile, then reloads the list and closes', async () => {
      signIn();
      const teams = serveTeams({ teams: [aTeam(1), aTeam(2), aTeam(3)] });
      const remove = recordBodies('delete', 'teams/delete', () => {
        teams.setTeams([aTeam(1), aTeam(3)]);
        return ok(null, 'Team deleted');
      });
      const { user } = await renderApp('/teams');
      await user.click(await screen.findByRole('button', { name: 'Delete Team 2' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Team 2?' });
      const before = teams.queries.length;

      const release = remove.hold();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await within(dialog).findByText('Deleting...')).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeDisabled();
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
      act(() => release());

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(remove.bodies).toEqual([{ teamId: 2 }]);
      expect(teams.queries.length).toBe(before + 1);
      expect(screen.queryByText('Team 2')).not.toBeInTheDocument();
      expect(screen.getByText('Team 3')).toBeInTheDocument();
    });

    it('keeps a failure in the dialog until it is cancelled', async () => {
      signIn();
      serveTeams({ teams: [aTeam(1), aTeam(2)] });
      recordBodies('delete', 'teams/delete', () => fail(404, 'Team not found'));
      const { user } = await renderApp('/teams');
      await user.click(await screen.findByRole('button', { name: 'Delete Team 2' }));
      let dialog = await screen.findByRole('dialog', { name: 'Delete Team 2?' });

      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'Error deleting team: Team not found',
      );
      expect(screen.getByText('Team 2')).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Delete Team 2' }));
      dialog = await screen.findByRole('dialog', { name: 'Delete Team 2?' });
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
