import { act, screen, waitFor, within } from '@testing-library/react';
import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import {
  aMember,
  recordBodies,
  rowsOf,
  serveTeam,
  serveTeams,
  signIn,
  tableTitled,
} from './support/teams-fixtures';
import { typeText } from './support/typing';

const membersTable = () => tableTitled('Team Members');
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const nameInput = () => screen.getByRole('textbox', { name: 'Team Name' });
const saveButton = () => screen.getByRole('button', { name: 'Save' });

// Whole journeys through the real router and query client: slow on a busy machine.
describe('Team page', { timeout: 15_000 }, () => {
  it('shows the team name, its members 5 a page with their roles, and Edit Team', async () => {
    signIn();
    const team = serveTeam({
      members: [
        aMember(101, { name: 'Grace Hopper', roleId: 2 }),
        aMember(102, { name: 'Alan Turing', roleId: 1 }),
        ...Array.from({ length: 5 }, (_, i) => aMember(103 + i)),
      ],
    });
    await renderApp('/team?id=5');
    expect(await screen.findByRole('heading', { level: 2, name: 'Platform' })).toBeInTheDocument();
    expect(nameInput()).toHaveValue('Platform');
    expect(saveButton()).toBeDisabled();
    expect(screen.getByRole('heading', { level: 3, name: 'Team Members' })).toBeInTheDocument();
    expect(team.queries).toEqual([{ page: '1', rowsPerPage: '5' }]);

    await screen.findByText('Grace Hopper');
    expect(
      within(membersTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['User', 'Role', 'Email']);
    const rows = rowsOf(membersTable());
    expect(rows).toHaveLength(5);
    await waitFor(() =>
      expect(cellsOf(rows[0]!)).toEqual(['GHGrace Hopper', 'Manager', 'member101@example.com']),
    );
    expect(cellsOf(rows[1]!)).toEqual(['ATAlan Turing', 'Admin', 'member102@example.com']);
    expect(cellsOf(rows[2]!)).toEqual(['M1Member 103', 'Viewer', 'member103@example.com']);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Team' })).toBeInTheDocument();
    // And the team's VMs below.
    expect(screen.getByRole('heading', { level: 3, name: 'Virtual Machines' })).toBeInTheDocument();
  });

  it.each([
    ['Viewer', 4],
    ['Operator', 3],
  ])('shows a %s the team read-only, without Save or Edit Team', async (_role, yourRoleId) => {
    signIn();
    serveTeam({ yourRoleId });
    await renderApp('/team?id=5');
    await screen.findByText('Member 101');
    expect(nameInput()).toHaveValue('Platform');
    expect(nameInput()).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Team' })).not.toBeInTheDocument();
  });

  it('lets a Manager rename the team and edit it', async () => {
    signIn();
    serveTeam({ yourRoleId: 2 });
    await renderApp('/team?id=5');
    await screen.findByText('Member 101');
    expect(nameInput()).not.toHaveAttribute('readonly');
    expect(saveButton()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Team' })).toBeInTheDocument();
  });

  it('pages and searches the members in the URL, next to the id', async () => {
    signIn();
    const team = serveTeam();
    const { user, router } = await renderApp('/team?id=5');
    await screen.findByText('Member 101');

    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Member 106')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/team?id=5&page=2');
    expect(team.last()).toEqual({ page: '2', rowsPerPage: '5' });
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await typeText(user, screen.getByPlaceholderText('Search team members...'), 'ber 112');
    await waitFor(() => expect(router.state.location.search).toEqual({ id: 5, search: 'ber 112' }));
    expect(await screen.findByText('Member 112')).toBeInTheDocument();
    expect(team.last()).toEqual({ page: '1', rowsPerPage: '5', search: 'ber 112' });
    expect(rowsOf(membersTable())).toHaveLength(1);
  });

  it('says "No team members found" for a team without members', async () => {
    signIn();
    serveTeam({ members: [] });
    await renderApp('/team?id=5');
    expect(await screen.findByText('No team members found')).toBeInTheDocument();
  });

  it('opens a member from their row', async () => {
    signIn();
    serveTeam();
    // The user page is not what this is about: its requests never answer.
    server.use(http.get(api('users/*'), () => delay('infinite')));
    const { user, router } = await renderApp('/team?id=5');
    await user.click(await screen.findByText('member103@example.com'));
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=103'));
  });

  it('goes to the wizard from Edit Team, and back to the teams list from the arrow', async () => {
    signIn();
    serveTeam();
    serveTeams();
    const { user, router } = await renderApp('/team?id=5');
    await user.click(await screen.findByRole('button', { name: 'Edit Team' }));
    await waitFor(() => expect(locationOf(router)).toBe('/createEditTeam?id=5'));

    await act(() => router.navigate({ to: '/team', search: { id: 5 } }));
    await user.click(await screen.findByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/teams'));
  });

  it('renames the team: Save once the name changed, then a toast and the new title', async () => {
    signIn();
    const team = serveTeam();
    const update = recordBodies('post', 'teams/update', () => {
      team.set({ name: 'Platform Ops' });
      return ok(null, 'Team updated');
    });
    const { user } = await renderApp('/team?id=5');
    await screen.findByRole('heading', { level: 2, name: 'Platform' });

    await typeText(user, nameInput(), ' Ops  ');
    expect(saveButton()).toBeEnabled();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Team updated')).toBeInTheDocument();
    expect(update.bodies).toEqual([{ teamId: 5, name: 'Platform Ops' }]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Platform Ops' }),
    ).toBeInTheDocument();
    expect(nameInput()).toHaveValue('Platform Ops');
    expect(saveButton()).toBeDisabled();
  });

  it('refuses an empty name with the rule, before any request', async () => {
    signIn();
    serveTeam();
    const update = recordBodies('post', 'teams/update');
    const { user } = await renderApp('/team?id=5');
    await screen.findByRole('heading', { level: 2, name: 'Platform' });

    await user.clear(nameInput());
    expect(await screen.findByText('Team name cannot be empty')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.type(nameInput(), '   {Enter}');
    expect(screen.getByText('Team name cannot be empty')).toBeInTheDocument();
    expect(update.bodies).toEqual([]);
  });

  it('keeps the typed name and shows the failure inline', async () => {
    signIn();
    serveTeam();
    recordBodies('post', 'teams/update', () => fail(409, 'A team with this name already exists'));
    const { user } = await renderApp('/team?id=5');
    await screen.findByRole('heading', { level: 2, name: 'Platform' });

    await user.clear(nameInput());
    await typeText(user, nameInput(), 'Data');
    await user.click(saveButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error updating team')).toBeInTheDocument();
    expect(alert).toHaveTextContent('A team with this name already exists');
    expect(nameInput()).toHaveValue('Data');
    expect(screen.getByRole('heading', { level: 2, name: 'Platform' })).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
  });

  it('says "Team not found" for a team of another company', async () => {
    signIn();
    serveTeam({ id: 5 });
    await renderApp('/team?id=6');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching team')).toBeInTheDocument();
    expect(alert).toHaveTextContent('Team not found');
    expect(screen.getByRole('heading', { level: 2, name: 'Team' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Team' })).not.toBeInTheDocument();
  });

  it('asks for no team at all without an id', async () => {
    signIn();
    const team = serveTeam();
    await renderApp('/team');
    expect(await screen.findByRole('alert')).toHaveTextContent('Team not found');
    expect(team.queries).toEqual([]);
  });
});
