import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import {
  aTeam,
  gate,
  optionsOf,
  pick,
  ROLES,
  serveRoles,
  serveTeams,
  signedInAs,
} from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const TEAMS = [aTeam(11, 'Operations'), aTeam(12, 'Development'), aTeam(13, 'Finance')];

/** Serves the Add User screen's lists and records what users/create receives. */
function serveAddUser({
  failure,
  hold,
}: { failure?: { status: number; message: string }; hold?: Promise<void> } = {}) {
  signedInAs();
  serveRoles();
  const teams = serveTeams(TEAMS);
  const bodies: unknown[] = [];
  server.use(
    http.post(api('users/create'), async ({ request }) => {
      const body = (await request.json()) as { email: string };
      bodies.push(body);
      if (hold) await hold;
      if (failure) return fail(failure.status, failure.message);
      return ok({ id: 40 }, `Completed creating user: ${body.email}`);
    }),
    // Going back lands on the list.
    http.get(api('users/list'), () => ok({ data: [], totalPages: 1 })),
  );
  return { bodies, teams };
}

const emailInput = () => screen.getByRole('textbox', { name: 'Email Address' });
const roleInput = () => screen.getByRole('combobox', { name: 'User Role' });
const teamsInput = () => screen.getByRole('combobox', { name: 'Teams' });
const submit = () => screen.getByRole('button', { name: 'Send Invite Email' });

async function openAddUser(path = '/createUser') {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'Add User' });
  // The lists have arrived when the dropdowns are enabled.
  await waitFor(() => expect(roleInput()).toBeEnabled());
  await waitFor(() => expect(teamsInput()).toBeEnabled());
  return view;
}

describe('Add User', () => {
  it('shows the form: e-mail, the company’s teams and the four roles', async () => {
    const { teams } = serveAddUser();
    const { user } = await openAddUser();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument();
    expect(emailInput()).toHaveValue('');
    expect(roleInput()).toHaveAttribute('placeholder', '-- Select --');
    expect(teamsInput()).toHaveAttribute('placeholder', '-- Select --');
    // All teams in one request, whatever the list page size.
    expect(teams.queries).toEqual([{ page: '1', rowsPerPage: '100' }]);

    await user.click(roleInput());
    const roleOptions = await optionsOf(roleInput());
    expect(roleOptions.map((o) => o.textContent)).toEqual(ROLES.map((r) => r.name));
    await user.keyboard('{Escape}');

    await user.click(teamsInput());
    const teamOptions = await optionsOf(teamsInput());
    expect(teamOptions.map((o) => o.textContent)).toEqual(['Operations', 'Development', 'Finance']);
  });

  it('shows the chosen role’s info text under the role', async () => {
    serveAddUser();
    const { user } = await openAddUser();
    expect(screen.queryByText(ROLES[2]!.info)).not.toBeInTheDocument();
    await pick(user, roleInput(), 'Operator');
    expect(roleInput()).toHaveValue('Operator');
    expect(screen.getByText(ROLES[2]!.info)).toBeInTheDocument();
    expect(roleInput()).toHaveAccessibleDescription(ROLES[2]!.info);
    await pick(user, roleInput(), 'Viewer');
    expect(screen.getByText(ROLES[3]!.info)).toBeInTheDocument();
    expect(screen.queryByText(ROLES[2]!.info)).not.toBeInTheDocument();
  });

  it('filters the teams as one types, saying when nothing matches', async () => {
    serveAddUser();
    const { user } = await openAddUser();
    await user.click(teamsInput());
    await user.keyboard('dev');
    const listbox = document.getElementById(teamsInput().getAttribute('aria-controls')!)!;
    await waitFor(() =>
      expect(
        within(listbox)
          .queryAllByRole('option', { hidden: true })
          .map((o) => o.textContent),
      ).toEqual(['Development']),
    );
    await user.keyboard('zzz');
    expect(await screen.findByText('No options found')).toBeInTheDocument();
  });

  it('requires an e-mail and a role, and sends nothing until they are valid', async () => {
    const { bodies } = serveAddUser();
    const { user } = await openAddUser();
    await user.click(submit());
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Role is required')).toBeInTheDocument();
    // The first invalid field gets the cursor.
    expect(emailInput()).toHaveFocus();

    await typeText(user, emailInput(), 'not-an-email');
    expect(
      await screen.findByText('Entered value does not match email format'),
    ).toBeInTheDocument();
    await pick(user, roleInput(), 'Viewer');
    await waitFor(() => expect(screen.queryByText('Role is required')).not.toBeInTheDocument());
    await user.click(submit());
    expect(screen.getByText('Entered value does not match email format')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('invites: sends e-mail, role and teams, toasts and goes back where it came from', async () => {
    const { bodies } = serveAddUser();
    const { user, router } = await renderApp('/users?search=new');
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    await screen.findByRole('heading', { level: 2, name: 'Add User' });
    await waitFor(() => expect(teamsInput()).toBeEnabled());

    await typeText(user, emailInput(), '  New.Person@Example.com ');
    await pick(user, teamsInput(), 'Development');
    await pick(user, teamsInput(), 'Operations');
    await user.keyboard('{Escape}');
    await pick(user, roleInput(), 'Operator');
    await user.click(submit());

    expect(
      await screen.findByText('Completed creating user: new.person@example.com'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ email: 'new.person@example.com', roleId: 3, teamIds: [12, 11] }]);
    // Back in history: the list as it was left, search included.
    await waitFor(() => expect(locationOf(router)).toBe('/users?search=new'));
  });

  it('goes to the users list after inviting when there is no page to go back to', async () => {
    const { bodies } = serveAddUser();
    const { user, router } = await openAddUser();
    await typeText(user, emailInput(), 'solo@example.com');
    await pick(user, roleInput(), 'Admin');
    await user.click(submit());
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
    expect(bodies).toEqual([{ email: 'solo@example.com', roleId: 1, teamIds: [] }]);
    expect(screen.getByText('Completed creating user: solo@example.com')).toBeInTheDocument();
  });

  it('shows a loading button while the invitation is sent', async () => {
    const held = gate();
    const { bodies } = serveAddUser({ hold: held.promise });
    const { user } = await openAddUser();
    await typeText(user, emailInput(), 'slow@example.com');
    await pick(user, roleInput(), 'Viewer');
    await user.click(submit());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(submit()).toHaveAttribute('data-loading');
    expect(submit()).toBeDisabled();
    // A second click sends nothing more.
    await user.click(submit());
    act(() => held.release());
    expect(
      await screen.findByText('Completed creating user: slow@example.com'),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
  });

  it('keeps the form as typed and shows the server’s error inline when it fails', async () => {
    const { bodies } = serveAddUser({
      failure: { status: 409, message: 'A user with this email already exists' },
    });
    const { user, router } = await openAddUser();
    await typeText(user, emailInput(), 'taken@example.com');
    await pick(user, teamsInput(), 'Finance');
    await user.keyboard('{Escape}');
    await pick(user, roleInput(), 'Manager');
    await user.click(submit());

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error creating users')).toBeInTheDocument();
    expect(within(alert).getByText('A user with this email already exists')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(locationOf(router)).toBe('/createUser');
    expect(emailInput()).toHaveValue('taken@example.com');
    expect(roleInput()).toHaveValue('Manager');
    expect(screen.getByText('Finance')).toBeInTheDocument();
    expect(submit()).toBeEnabled();
    expect(screen.queryByText(/Completed creating user/)).not.toBeInTheDocument();
  });

  it('says so in the field when the roles cannot be loaded', async () => {
    serveAddUser();
    server.use(http.get(api('roles/userRoles'), () => fail(500, 'Database unavailable')));
    await renderApp('/createUser');
    expect(
      await screen.findByText('Error fetching user roles: Database unavailable'),
    ).toBeInTheDocument();
  });

  it('goes back with the arrow', async () => {
    serveAddUser();
    const { user, router } = await renderApp('/users');
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    await screen.findByRole('heading', { level: 2, name: 'Add User' });
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
  });
});
