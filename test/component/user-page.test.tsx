import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCreated } from '../../src/routes/_app/-components/users/user-details-card';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { setViewportWidth } from './support/viewport';
import {
  aUserDetails,
  gate,
  memberships,
  optionsOf,
  pick,
  serveUserPage,
  signedInAs,
} from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const firstName = () => screen.getByRole('textbox', { name: 'First Name' });
const lastName = () => screen.getByRole('textbox', { name: 'Last Name' });
const save = () => screen.getByRole('button', { name: 'Save' });
const membershipsTable = () => screen.getByRole('table', { name: 'Team Memberships' });
const teamRows = () => within(membershipsTable()).getAllByRole('row').slice(1);
const roleSelect = (team: string) => screen.getByRole('combobox', { name: `Role in ${team}` });
const dialog = () => screen.getByRole('dialog');

/** Opens a user page and waits for the user and their memberships. */
async function openUserPage(path: string, heading: string) {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 2, name: heading });
  await waitFor(() => expect(screen.queryByLabelText('Loading data')).not.toBeInTheDocument());
  return view;
}

describe('User page: the user', () => {
  it('shows the names, e-mail and creation date, with Save off until something changes', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    await openUserPage('/user?id=3', 'Grace Hopper');
    expect(sent.detailRequests).toEqual([3]);
    expect(firstName()).toHaveValue('Grace');
    expect(lastName()).toHaveValue('Hopper');
    expect(firstName()).not.toHaveAttribute('readonly');
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveValue('grace@example.com');
    expect(email).toHaveAttribute('readonly');
    const created = screen.getByRole('textbox', { name: 'Created' });
    expect(created).toHaveAttribute('readonly');
    // A date for people (in the browser's language), not the wire's ISO string.
    expect(created).toHaveValue(formatCreated(new Date('2025-03-04T12:00:00.000Z')));
    expect((created as HTMLInputElement).value).toMatch(/2025/);
    expect((created as HTMLInputElement).value).not.toMatch(/T12|2025-03/);
    expect(save()).toBeDisabled();
    expect(screen.queryByText('Invitation pending')).not.toBeInTheDocument();
  });

  it('saves changed names (trimmed), toasts and shows them', async () => {
    const { sent } = serveUserPage({ memberships: { 3: [] } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.clear(firstName());
    await typeText(user, firstName(), '  Grace Brewster ');
    expect(save()).toBeEnabled();
    await user.click(save());

    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(sent.edits).toEqual([{ id: 3, firstName: 'Grace Brewster', lastName: 'Hopper' }]);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Grace Brewster Hopper' }),
    ).toBeInTheDocument();
    expect(firstName()).toHaveValue('Grace Brewster');
    await waitFor(() => expect(save()).toBeDisabled());
  });

  it('turns Save off again when the names are changed back', async () => {
    serveUserPage({ memberships: { 3: [] } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await typeText(user, lastName(), 'x');
    expect(save()).toBeEnabled();
    await user.type(lastName(), '{Backspace}');
    expect(save()).toBeDisabled();
  });

  it('updates the sidebar when one saves one’s own names', async () => {
    setViewportWidth(1280);
    serveUserPage({
      users: [
        aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }),
      ],
      memberships: { 7: [] },
    });
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    /** The name at the bottom of the sidebar (the page's heading says it too). */
    const sidebarName = (name: string) =>
      screen.queryAllByText(name).filter((element) => !element.closest('h2'));
    expect(sidebarName('Ada Lovelace')).toHaveLength(1);

    await user.clear(lastName());
    await typeText(user, lastName(), 'King');
    await user.click(save());
    await screen.findByText('User updated successfully');
    expect(await screen.findByRole('heading', { level: 2, name: 'Ada King' })).toBeInTheDocument();
    await waitFor(() => expect(sidebarName('Ada King')).toHaveLength(1));
    expect(sidebarName('Ada Lovelace')).toHaveLength(0);
  });

  it('checks the names before sending anything', async () => {
    const { sent } = serveUserPage({ memberships: { 3: [] } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.clear(firstName());
    await user.click(save());
    expect(await screen.findByText('First name cannot be empty')).toBeInTheDocument();
    expect(firstName()).toHaveFocus();

    await typeText(user, firstName(), 'Gr4ce');
    expect(
      await screen.findByText('First name cannot contain special characters'),
    ).toBeInTheDocument();
    await user.clear(lastName());
    await typeText(user, lastName(), 'Hopper!');
    expect(
      await screen.findByText('Last name cannot contain special characters'),
    ).toBeInTheDocument();
    await user.clear(lastName());
    expect(await screen.findByText('Last name cannot be empty')).toBeInTheDocument();
    await user.click(save());
    expect(sent.edits).toEqual([]);
  });

  it('keeps the names as typed and shows the error inline when saving fails', async () => {
    serveUserPage({ memberships: { 3: [] } });
    server.use(http.post(api('users/edit'), () => fail(403, 'Only an Admin can edit other users')));
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await typeText(user, firstName(), 'lyn');
    await user.click(save());

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error editing user')).toBeInTheDocument();
    expect(within(alert).getByText('Only an Admin can edit other users')).toBeInTheDocument();
    expect(firstName()).toHaveValue('Gracelyn');
    expect(save()).toBeEnabled();
    expect(screen.getByRole('heading', { level: 2, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.queryByText('User updated successfully')).not.toBeInTheDocument();
  });

  it('shows a loading Save while the names are sent', async () => {
    const held = gate();
    const { sent } = serveUserPage({ memberships: { 3: [] } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    server.use(
      http.post(api('users/edit'), async () => {
        sent.edits.push({ id: 3, firstName: '', lastName: '' });
        await held.promise;
        return fail(500, 'Timed out');
      }),
    );
    await typeText(user, firstName(), 'ie');
    await user.click(save());
    await waitFor(() => expect(sent.edits).toHaveLength(1));
    expect(save()).toHaveAttribute('data-loading');
    act(() => held.release());
    expect(await screen.findByText('Timed out')).toBeInTheDocument();
  });

  it('shows somebody else’s names read-only to a user who is not an Admin', async () => {
    serveUserPage({ memberships: { 3: memberships(1) } });
    signedInAs({ isAdmin: false });
    await openUserPage('/user?id=3', 'Grace Hopper');
    expect(firstName()).toHaveValue('Grace');
    expect(firstName()).toHaveAttribute('readonly');
    expect(lastName()).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows a user who is not an Admin the memberships without controls', async () => {
    serveUserPage({ memberships: { 3: memberships(2) } });
    signedInAs({ isAdmin: false });
    await openUserPage('/user?id=3', 'Grace Hopper');
    const [row] = teamRows();
    await waitFor(() => expect(within(row!).getAllByRole('cell')[1]).toHaveTextContent(/\w/));
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove from / })).not.toBeInTheDocument();
  });

  it('lets a user who is not an Admin edit their own names', async () => {
    serveUserPage({ users: [aUserDetails({ id: 7 })], memberships: { 7: [] } });
    signedInAs({ isAdmin: false });
    await openUserPage('/user?id=7', 'Grace Hopper');
    expect(firstName()).not.toHaveAttribute('readonly');
    expect(save()).toBeInTheDocument();
  });

  it('names an invited user by e-mail and says the invitation is pending', async () => {
    serveUserPage({
      users: [
        aUserDetails({ firstName: '', lastName: '', email: 'new@example.com', activated: false }),
      ],
      memberships: { 3: [] },
    });
    await openUserPage('/user?id=3', 'new@example.com');
    expect(screen.getByText('Invitation pending')).toBeInTheDocument();
  });

  it('says "User not found" for an id the server does not know (or another company’s)', async () => {
    const { sent } = serveUserPage({});
    await renderApp('/user?id=99');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching user')).toBeInTheDocument();
    expect(within(alert).getByText('User not found')).toBeInTheDocument();
    expect(sent.detailRequests).toEqual([99]);
    // No memberships of nobody.
    expect(sent.teamQueries).toEqual([]);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says "User not found" for id 0 or a malformed id without asking the server', async () => {
    const { sent } = serveUserPage({});
    await renderApp('/user?id=abc');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching user')).toBeInTheDocument();
    expect(within(alert).getByText('User not found')).toBeInTheDocument();
    expect(sent.detailRequests).toEqual([]);
  });
});

describe('User page: team memberships', () => {
  it('lists 6 a page with each team’s role; the role choices leave out Admin', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(8) } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    expect(screen.getByRole('heading', { name: 'Team Memberships' })).toBeInTheDocument();
    expect(sent.teamQueries).toEqual([{ page: '1', rowsPerPage: '6' }]);
    expect(teamRows()).toHaveLength(6);
    expect(
      within(membershipsTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Team', 'Role', 'Actions']);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    // Roles 2, 3, 4 in turn.
    await waitFor(() => expect(roleSelect('Team 11')).toHaveValue('Manager'));
    expect(roleSelect('Team 12')).toHaveValue('Operator');
    expect(roleSelect('Team 13')).toHaveValue('Viewer');
    expect(screen.getByRole('button', { name: 'Remove from Team 11' })).toBeInTheDocument();

    await user.click(roleSelect('Team 11'));
    expect((await optionsOf(roleSelect('Team 11'))).map((o) => o.textContent)).toEqual([
      'Manager',
      'Operator',
      'Viewer',
    ]);
  });

  it('shows an Admin membership as fixed text; only leaving the team is offered', async () => {
    serveUserPage({
      memberships: {
        3: [
          { id: 11, name: 'Team 11', roleId: 1 },
          ...memberships(1).map((m) => ({ ...m, id: 12, name: 'Team 12' })),
        ],
      },
    });
    await openUserPage('/user?id=3', 'Grace Hopper');
    const [adminRow, otherRow] = teamRows();
    expect(within(adminRow!).getAllByRole('cell')[1]).toHaveTextContent(/^Admin$/);
    expect(within(adminRow!).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(adminRow!).getByRole('button', { name: 'Remove from Team 11' })).toBeVisible();
    expect(within(otherRow!).getByRole('combobox')).toBeInTheDocument();
  });

  it('pages with the page in the URL next to the id', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(8) } });
    const { user, router } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=3&page=2'));
    expect(await screen.findByText('Team 17')).toBeInTheDocument();
    expect(teamRows()).toHaveLength(2);
    expect(sent.teamQueries.at(-1)).toEqual({ page: '2', rowsPerPage: '6' });
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('searches once typing pauses, back to page 1, keeping the search in the URL', async () => {
    const { sent } = serveUserPage({
      memberships: {
        3: [
          ...memberships(7),
          { id: 30, name: 'Ops North', roleId: 3 },
          { id: 31, name: 'Ops South', roleId: 4 },
        ],
      },
    });
    const { user, router } = await openUserPage('/user?id=3&page=2', 'Grace Hopper');
    await typeText(user, screen.getByPlaceholderText('Search teams...'), 'ops');
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=3&search=ops'));
    await waitFor(() =>
      expect(sent.teamQueries.at(-1)).toEqual({ page: '1', rowsPerPage: '6', search: 'ops' }),
    );
    await waitFor(() => expect(teamRows()).toHaveLength(2));
    expect(screen.getByText('Ops North')).toBeInTheDocument();
    expect(screen.getByText('Ops South')).toBeInTheDocument();
  });

  it('opens a deep link with its search and page', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(14) } });
    await openUserPage('/user?id=3&search=team&page=2', 'Grace Hopper');
    expect(sent.teamQueries).toEqual([{ page: '2', rowsPerPage: '6', search: 'team' }]);
    expect(screen.getByPlaceholderText('Search teams...')).toHaveValue('team');
    expect(screen.getByText('Team 17')).toBeInTheDocument();
  });

  it('says "No teams found" when there are none', async () => {
    serveUserPage({ memberships: { 3: [] } });
    await openUserPage('/user?id=3', 'Grace Hopper');
    expect(screen.getByText('No teams found')).toBeInTheDocument();
  });

  it('changes a role: sends team, user and role, and shows the new role', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await waitFor(() => expect(roleSelect('Team 11')).toHaveValue('Manager'));
    await pick(user, roleSelect('Team 11'), 'Viewer');
    expect(await screen.findByText('User role updated')).toBeInTheDocument();
    expect(sent.roleUpdates).toEqual([{ teamId: 11, userId: 3, roleId: 4 }]);
    expect(roleSelect('Team 11')).toHaveValue('Viewer');
    // The other membership is untouched.
    expect(roleSelect('Team 12')).toHaveValue('Operator');
  });

  it('shows the new role while it is saved and the previous one again when it fails', async () => {
    const held = gate();
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    server.use(
      http.post(api('roles/updateUserRoleForTeam'), async ({ request }) => {
        sent.roleUpdates.push((await request.json()) as never);
        await held.promise;
        return fail(403, 'Only a Manager of this team can change roles');
      }),
    );
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await waitFor(() => expect(roleSelect('Team 11')).toHaveValue('Manager'));
    await pick(user, roleSelect('Team 11'), 'Operator');
    await waitFor(() => expect(sent.roleUpdates).toHaveLength(1));
    expect(roleSelect('Team 11')).toHaveValue('Operator');
    expect(screen.getByLabelText('Saving role')).toBeInTheDocument();

    act(() => held.release());
    expect(
      await screen.findByText(
        'Error updating user role: Only a Manager of this team can change roles',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(roleSelect('Team 11')).toHaveValue('Manager'));
    expect(screen.queryByLabelText('Saving role')).not.toBeInTheDocument();
    expect(sent.roleUpdates).toEqual([{ teamId: 11, userId: 3, roleId: 3 }]);
  });

  it('removes from a team after confirmation', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Remove from Team 11' }));
    await screen.findByRole('dialog');
    expect(dialog()).toHaveTextContent('Remove from Team 11?');
    expect(dialog()).toHaveTextContent('Grace Hopper will lose access to Team 11');
    expect(sent.removals).toEqual([]);

    await user.click(within(dialog()).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('User removed from team')).toBeInTheDocument();
    expect(sent.removals).toEqual([{ teamId: 11, userId: 3 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('Team 11')).not.toBeInTheDocument();
    expect(teamRows()).toHaveLength(1);
  });

  it('removes nothing on Cancel', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Remove from Team 12' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.removals).toEqual([]);
    expect(screen.getByText('Team 12')).toBeInTheDocument();
  });

  it('keeps the dialog open with the error when removing fails, busy while it runs', async () => {
    const held = gate();
    const { sent } = serveUserPage({ memberships: { 3: memberships(2) } });
    server.use(
      http.delete(api('teams/removeUser'), async () => {
        sent.removals.push({ teamId: 0, userId: 0 });
        await held.promise;
        return fail(404, 'The user is not a member of this team');
      }),
    );
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Remove from Team 11' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }),
    );
    expect(await within(dialog()).findByText('Removing...')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toBeDisabled();

    act(() => held.release());
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Error removing user from team: The user is not a member of this team',
    );
    expect(screen.getByText('Team 11')).toBeInTheDocument();
  });

  it('shows a failure to load the memberships inside the table', async () => {
    serveUserPage({ memberships: { 3: [] } });
    server.use(http.get(api('users/teams/:id'), () => fail(500, 'Database unavailable')));
    await renderApp('/user?id=3');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching teams')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
    // The user is still there.
    expect(screen.getByRole('heading', { level: 2, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(firstName()).toHaveValue('Grace');
  });

  it('works from the keyboard: a role is chosen with arrows and Enter', async () => {
    const { sent } = serveUserPage({ memberships: { 3: memberships(1) } });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    await waitFor(() => expect(roleSelect('Team 11')).toHaveValue('Manager'));
    roleSelect('Team 11').focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(roleSelect('Team 11')).toHaveAttribute('aria-expanded', 'true'));
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(sent.roleUpdates).toEqual([{ teamId: 11, userId: 3, roleId: 3 }]));
    expect(roleSelect('Team 11')).toHaveFocus();
  });
});
