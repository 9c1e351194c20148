import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PermissionEntry } from '../../src/api/contract/permissions';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import {
  aMember,
  aUserRow,
  recordBodies,
  rowsOf,
  serveTeam,
  serveTeams,
  serveUsers,
  signIn,
  tableTitled,
} from './support/teams-fixtures';
import { typeText } from './support/typing';

const title = (name: string) => screen.findByRole('heading', { level: 2, name });
const nameInput = () => screen.getByRole('textbox', { name: 'Team Name' });
const button = (name: string) => screen.getByRole('button', { name });
/** Back and Next of the wizard (the tables have their own Next for paging). */
const wizardButton = (name: 'Back' | 'Next') =>
  within(screen.getByRole('group', { name: 'Wizard navigation' })).getByRole('button', { name });
const goBack = () => screen.getByRole('button', { name: 'Go back' });
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

const roleInput = (member: string) => screen.getByRole('combobox', { name: `Role of ${member}` });

/** The options of a dropdown (Mantine keeps them hidden from the a11y tree while it animates). */
async function optionsOf(input: HTMLElement) {
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  return within(listbox).queryAllByRole('option', { hidden: true });
}

/** Opens a member's role dropdown and picks a role. */
async function pick(user: UserEvent, member: string, role: string) {
  await user.click(roleInput(member));
  const option = (await optionsOf(roleInput(member))).find((o) => o.textContent === role);
  if (!option) throw new Error(`No role "${role}" for ${member}`);
  await user.click(option);
  await waitFor(() => expect(roleInput(member)).toHaveValue(role));
}

/** An entry of permissions/list/{id}. */
const anEntry = (userId: number, roleId: number): PermissionEntry => ({
  userId,
  name: `Member ${userId}`,
  email: `member${userId}@example.com`,
  roleId,
  permissions: ['team.view'],
});

function servePermissions(teamId: number, entries: PermissionEntry[]) {
  let count = 0;
  server.use(
    http.get(api(`permissions/list/${teamId}`), () => {
      count += 1;
      return ok({ teamId, entries });
    }),
  );
  return { requests: () => count };
}

/** Opens the wizard on team 5 ('Platform') and goes on to the build page. */
async function openBuild(path = '/createEditTeam?id=5') {
  const view = await renderApp(path);
  await title('Edit Platform');
  await view.user.click(button('Next'));
  await screen.findByRole('heading', { level: 3, name: 'Available Users' });
  return view;
}

// Whole journeys through the real router and query client: slow on a busy machine.
describe('Create/Edit Team', { timeout: 15_000 }, () => {
  it('tells a Viewer or Operator who opens it by address that they may not change the team', async () => {
    signIn({ isAdmin: false });
    serveTeam({ yourRoleId: 3 });
    await renderApp('/createEditTeam?id=5');
    expect(await screen.findByText('You do not have permission to do that')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Team Name' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  describe('teamName', () => {
    it('creates the team, puts its id in the URL and goes on to build', async () => {
      signIn();
      serveTeams();
      const create = recordBodies('post', 'teams/create', () => ok({ teamId: 9 }, 'Team created'));
      serveTeam({ id: 9, name: 'Research', members: [] });
      const users = serveUsers();
      const { user, router } = await renderApp('/teams');
      await user.click(await screen.findByRole('button', { name: 'Create Team' }));

      expect(await title('Create Team')).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 3, name: 'Team Details' })).toBeInTheDocument();
      expect(nameInput()).toHaveFocus();
      await user.type(nameInput(), '  Research {Enter}');

      expect(await title('Edit Research')).toBeInTheDocument();
      expect(create.bodies).toEqual([{ name: 'Research' }]);
      expect(locationOf(router)).toBe('/createEditTeam?id=9');
      expect(
        await screen.findByRole('heading', { level: 3, name: 'Available Users' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 3, name: 'Team Members' })).toBeInTheDocument();
      await waitFor(() => expect(users.last()).toMatchObject({ excludeTeamId: '9' }));
      // The id replaced the create address: history Back leaves the wizard.
      act(() => router.history.back());
      await waitFor(() => expect(locationOf(router)).toBe('/teams'));
    });

    it('refuses an empty name without a request', async () => {
      signIn();
      const create = recordBodies('post', 'teams/create');
      const { user } = await renderApp('/createEditTeam');
      await user.click(await screen.findByRole('button', { name: 'Next' }));
      expect(await screen.findByText('Team name cannot be empty')).toBeInTheDocument();
      await typeText(user, nameInput(), '   ');
      await user.click(button('Next'));
      expect(screen.getByText('Team name cannot be empty')).toBeInTheDocument();
      expect(create.bodies).toEqual([]);
    });

    it('shows a failed create inline, keeping the name', async () => {
      signIn();
      recordBodies('post', 'teams/create', () => fail(409, 'A team with this name already exists'));
      const { user, router } = await renderApp('/createEditTeam');
      await typeText(user, await screen.findByRole('textbox', { name: 'Team Name' }), 'Ops');
      await user.click(button('Next'));
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Error creating team')).toBeInTheDocument();
      expect(alert).toHaveTextContent('A team with this name already exists');
      expect(nameInput()).toHaveValue('Ops');
      expect(locationOf(router)).toBe('/createEditTeam');
      expect(screen.queryByRole('heading', { level: 3, name: 'Available Users' })).toBeNull();
    });

    it('goes on without a request when an existing name is unchanged', async () => {
      signIn();
      serveTeam();
      serveUsers();
      const update = recordBodies('post', 'teams/update');
      const { user } = await renderApp('/createEditTeam?id=5');
      expect(await title('Edit Platform')).toBeInTheDocument();
      expect(nameInput()).toHaveValue('Platform');
      await user.click(button('Next'));
      expect(
        await screen.findByRole('heading', { level: 3, name: 'Available Users' }),
      ).toBeInTheDocument();
      expect(update.bodies).toEqual([]);
    });

    it('renames a changed existing team before going on, or shows why not', async () => {
      signIn();
      const team = serveTeam();
      serveUsers();
      let refuse = true;
      const update = recordBodies('post', 'teams/update', () => {
        if (refuse) return fail(403, 'You do not have permission to do that');
        team.set({ name: 'Core' });
        return ok(null, 'Team updated');
      });
      const { user } = await renderApp('/createEditTeam?id=5');
      await title('Edit Platform');
      await user.clear(nameInput());
      await user.type(nameInput(), 'Core{Enter}');
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Error updating team')).toBeInTheDocument();
      expect(alert).toHaveTextContent('You do not have permission to do that');
      expect(nameInput()).toHaveValue('Core');

      refuse = false;
      await user.click(button('Next'));
      expect(await title('Edit Core')).toBeInTheDocument();
      expect(
        await screen.findByRole('heading', { level: 3, name: 'Available Users' }),
      ).toBeInTheDocument();
      expect(update.bodies).toEqual([
        { teamId: 5, name: 'Core' },
        { teamId: 5, name: 'Core' },
      ]);
    });

    it('says "Team not found" for a team of another company', async () => {
      signIn();
      serveTeam({ id: 5 });
      await renderApp('/createEditTeam?id=6');
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Error fetching team')).toBeInTheDocument();
      expect(alert).toHaveTextContent('Team not found');
      expect(screen.getByRole('heading', { level: 2, name: 'Edit Team' })).toBeInTheDocument();
      expect(screen.queryByRole('textbox', { name: 'Team Name' })).not.toBeInTheDocument();
    });
  });

  describe('build', () => {
    it('lists the users not in the team, 10 a page, and the members, 5 a page', async () => {
      signIn();
      serveTeam();
      const users = serveUsers();
      const { user } = await openBuild();

      const available = () => tableTitled('Available Users');
      await within(available()).findByText('First1 Last1');
      expect(users.last()).toEqual({
        page: '1',
        rowsPerPage: '10',
        sortColumn: 'name',
        sortDescending: 'false',
        excludeTeamId: '5',
      });
      expect(rowsOf(available())).toHaveLength(10);
      expect(cellsOf(rowsOf(available())[0]!)).toEqual([
        'First1 Last1',
        'user1@example.com',
        'Add',
      ]);

      const members = tableTitled('Team Members');
      expect(rowsOf(members)).toHaveLength(5);
      expect(cellsOf(rowsOf(members)[0]!)).toEqual([
        'Member 101',
        'member101@example.com',
        'Remove',
      ]);
      const membersCard = members.closest<HTMLElement>('.mantine-Paper-root')!;
      expect(within(membersCard).getByText('Page 1 of 3')).toBeInTheDocument();

      await typeText(user, screen.getByPlaceholderText('Search users...'), 'First1');
      await waitFor(
        () =>
          expect(users.last()).toMatchObject({ search: 'First1', page: '1', excludeTeamId: '5' }),
        { timeout: 3000 },
      );
    });

    it('adds a user as a member, reloading both lists', async () => {
      signIn();
      const team = serveTeam({ members: [aMember(101)] });
      const users = serveUsers([aUserRow(1), aUserRow(2)]);
      const add = recordBodies('post', 'teams/addUser', () => {
        users.set([aUserRow(2)]);
        team.set({ members: [aMember(101), aMember(1, { name: 'First1 Last1' })] });
        return ok(null, 'User added to team');
      });
      const { user } = await openBuild();
      await within(tableTitled('Available Users')).findByText('First1 Last1');
      const usersBefore = users.queries.length;
      const teamBefore = team.queries.length;

      const release = add.hold();
      await user.click(screen.getByRole('button', { name: 'Add First1 Last1' }));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Add First1 Last1' })).toHaveAttribute(
          'data-loading',
        ),
      );
      act(() => release());

      await waitFor(() =>
        expect(within(tableTitled('Team Members')).getByText('First1 Last1')).toBeInTheDocument(),
      );
      expect(add.bodies).toEqual([{ teamId: 5, userId: 1 }]);
      expect(within(tableTitled('Available Users')).queryByText('First1 Last1')).toBeNull();
      expect(users.queries.length).toBeGreaterThan(usersBefore);
      expect(team.queries.length).toBeGreaterThan(teamBefore);
    });

    it('toasts a failed add and keeps the user available', async () => {
      signIn();
      serveTeam();
      serveUsers([aUserRow(1)]);
      recordBodies('post', 'teams/addUser', () => fail(404, 'User not found'));
      const { user } = await openBuild();
      await user.click(await screen.findByRole('button', { name: 'Add First1 Last1' }));
      expect(
        await screen.findByText('Error adding user to team: User not found'),
      ).toBeInTheDocument();
      expect(within(tableTitled('Available Users')).getByText('First1 Last1')).toBeInTheDocument();
    });

    it('removes a member, reloading both lists', async () => {
      signIn();
      const team = serveTeam({ members: [aMember(101), aMember(102)] });
      const users = serveUsers([]);
      const remove = recordBodies('delete', 'teams/removeUser', () => {
        team.set({ members: [aMember(102)] });
        users.set([aUserRow(101, { firstName: 'Member', lastName: '101' })]);
        return ok(null, 'User removed from team');
      });
      const { user } = await openBuild();
      await within(tableTitled('Team Members')).findByText('Member 101');
      const usersBefore = users.queries.length;

      await user.click(screen.getByRole('button', { name: 'Remove Member 101' }));
      await waitFor(() =>
        expect(within(tableTitled('Team Members')).queryByText('Member 101')).toBeNull(),
      );
      expect(remove.bodies).toEqual([{ teamId: 5, userId: 101 }]);
      expect(users.queries.length).toBeGreaterThan(usersBefore);
      expect(within(tableTitled('Available Users')).getByText('Member 101')).toBeInTheDocument();
    });

    it('toasts a failed removal and keeps the member', async () => {
      signIn();
      serveTeam({ members: [aMember(101)] });
      serveUsers([]);
      recordBodies('delete', 'teams/removeUser', () =>
        fail(404, 'The user is not a member of this team'),
      );
      const { user } = await openBuild();
      await user.click(await screen.findByRole('button', { name: 'Remove Member 101' }));
      expect(
        await screen.findByText(
          'Error removing user from team: The user is not a member of this team',
        ),
      ).toBeInTheDocument();
      expect(within(tableTitled('Team Members')).getByText('Member 101')).toBeInTheDocument();
    });
  });

  describe('setPermissions', () => {
    const openPermissions = async (firstMember = 'Member 101') => {
      const view = await openBuild();
      await view.user.click(wizardButton('Next'));
      const table = await screen.findByRole('heading', {
        level: 3,
        name: 'Team Member Permissions',
      });
      await within(table.closest<HTMLElement>('.mantine-Paper-root')!).findByText(firstMember);
      return view;
    };

    it('shows a role per member, Admin as fixed text, and no Admin to choose', async () => {
      signIn();
      serveTeam();
      serveUsers();
      servePermissions(5, [anEntry(101, 1), anEntry(102, 2), anEntry(103, 4)]);
      const { user } = await openPermissions();

      const table = tableTitled('Team Member Permissions');
      const [admin, manager, viewer] = rowsOf(table);
      expect(cellsOf(admin!)).toEqual(['Member 101', 'member101@example.com', 'Admin']);
      expect(within(admin!).queryByRole('combobox')).toBeNull();
      expect(within(manager!).getByRole('combobox', { name: 'Role of Member 102' })).toHaveValue(
        'Manager',
      );
      expect(within(viewer!).getByRole('combobox', { name: 'Role of Member 103' })).toHaveValue(
        'Viewer',
      );
      expect(roleInput('Member 103')).toHaveAttribute('placeholder', '-- Select --');

      await user.click(roleInput('Member 103'));
      expect((await optionsOf(roleInput('Member 103'))).map((o) => o.textContent)).toEqual([
        'Manager',
        'Operator',
        'Viewer',
      ]);
    });

    it('saves only the changed rows, then toasts and opens the team page', async () => {
      signIn();
      serveTeam();
      serveUsers();
      servePermissions(5, [anEntry(101, 1), anEntry(102, 2), anEntry(103, 4), anEntry(104, 3)]);
      const assign = recordBodies('post', 'permissions/assign', () =>
        ok(null, 'Permissions saved'),
      );
      const { user, router } = await openPermissions();

      await pick(user, 'Member 103', 'Operator');
      // Changed and changed back: nothing to send for this one.
      await pick(user, 'Member 104', 'Viewer');
      await pick(user, 'Member 104', 'Operator');

      await user.click(button('Save Permissions'));
      expect(await screen.findByText('Permissions saved')).toBeInTheDocument();
      expect(assign.bodies).toEqual([{ teamId: 5, assignments: [{ userId: 103, roleId: 3 }] }]);
      await waitFor(() => expect(locationOf(router)).toBe('/team?id=5'));
    });

    it('keeps the choices and shows a failed save', async () => {
      signIn();
      serveTeam();
      serveUsers();
      servePermissions(5, [anEntry(102, 2)]);
      recordBodies('post', 'permissions/assign', () =>
        fail(403, 'You do not have permission to do that'),
      );
      const { user, router } = await openPermissions('Member 102');
      await pick(user, 'Member 102', 'Viewer');
      await user.click(button('Save Permissions'));

      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Error updating user role')).toBeInTheDocument();
      expect(alert).toHaveTextContent('You do not have permission to do that');
      expect(roleInput('Member 102')).toHaveValue('Viewer');
      expect(locationOf(router)).toBe('/createEditTeam?id=5');
    });
  });

  describe('back', () => {
    it('for a team that existed: to the team page, except from setPermissions', async () => {
      signIn();
      serveTeam();
      serveUsers();
      servePermissions(5, [anEntry(102, 2)]);
      const { user, router } = await openBuild();

      await user.click(wizardButton('Next'));
      await screen.findByRole('heading', { level: 3, name: 'Team Member Permissions' });
      await user.click(goBack());
      expect(
        await screen.findByRole('heading', { level: 3, name: 'Available Users' }),
      ).toBeInTheDocument();
      expect(locationOf(router)).toBe('/createEditTeam?id=5');

      await user.click(goBack());
      await waitFor(() => expect(locationOf(router)).toBe('/team?id=5'));
    });

    it('for a team that existed: to the team page from teamName too', async () => {
      signIn();
      serveTeam();
      const { user, router } = await renderApp('/createEditTeam?id=5');
      await title('Edit Platform');
      await user.click(goBack());
      await waitFor(() => expect(locationOf(router)).toBe('/team?id=5'));
    });

    it('for a new team: one step back, then out of the wizard', async () => {
      signIn();
      serveTeams();
      recordBodies('post', 'teams/create', () => ok({ teamId: 9 }, 'Team created'));
      serveTeam({ id: 9, name: 'Research', members: [] });
      serveUsers();
      const { user, router } = await renderApp('/teams');
      await user.click(await screen.findByRole('button', { name: 'Create Team' }));
      await typeText(user, await screen.findByRole('textbox', { name: 'Team Name' }), 'Research');
      await user.click(button('Next'));
      await screen.findByRole('heading', { level: 3, name: 'Available Users' });

      await user.click(goBack());
      expect(await screen.findByRole('textbox', { name: 'Team Name' })).toHaveValue('Research');
      expect(locationOf(router)).toBe('/createEditTeam?id=9');

      await user.click(goBack());
      await waitFor(() => expect(locationOf(router)).toBe('/teams'));
    });

    it('for a new team opened directly: out to the teams list', async () => {
      signIn();
      serveTeams();
      const { user, router } = await renderApp('/createEditTeam');
      await user.click(await screen.findByRole('button', { name: 'Go back' }));
      await waitFor(() => expect(locationOf(router)).toBe('/teams'));
    });

    it('has Back buttons on build and setPermissions', async () => {
      signIn();
      serveTeam();
      serveUsers();
      servePermissions(5, [anEntry(102, 2)]);
      const { user } = await openBuild();
      await user.click(wizardButton('Next'));
      await screen.findByRole('heading', { level: 3, name: 'Team Member Permissions' });
      await user.click(wizardButton('Back'));
      await screen.findByRole('heading', { level: 3, name: 'Available Users' });
      await user.click(wizardButton('Back'));
      expect(await screen.findByRole('textbox', { name: 'Team Name' })).toHaveValue('Platform');
    });
  });
});
