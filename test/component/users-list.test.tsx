import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { aUser } from './support/fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import {
  aRow,
  aUserDetails,
  serveRoles,
  serveTeams,
  serveUserPage,
} from './support/users-fixtures';

/**
 * Serves users/list from a fake directory of `total` users, 10 a page, and records every query
 * string it receives. users/delete/{id} removes a user, or answers `deleteFailure` when given.
 * Signed in: Ada, id 7.
 */
function serveUsers({
  total = 25,
  rows,
  deleteFailure,
}: {
  total?: number;
  rows?: ReturnType<typeof aRow>[];
  deleteFailure?: { status: number; message: string };
} = {}) {
  const queries: URLSearchParams[] = [];
  const deletes: number[] = [];
  let gate: Promise<void> | undefined;
  let all = rows ?? Array.from({ length: total }, (_, i) => aRow(i + 1));
  server.use(
    http.get(api('auth/check'), () => ok({ user: aUser() })),
    http.get(api('users/list'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      if (gate) await gate;
      const page = Number(params.get('page'));
      const size = Number(params.get('rowsPerPage'));
      return ok({
        data: all.slice((page - 1) * size, page * size),
        totalPages: Math.max(1, Math.ceil(all.length / size)),
      });
    }),
    http.delete(api('users/delete/:id'), ({ params }) => {
      const id = Number(params.id);
      deletes.push(id);
      if (deleteFailure) return fail(deleteFailure.status, deleteFailure.message);
      all = all.filter((row) => row.id !== id);
      return ok(null, 'User deleted');
    }),
  );
  return {
    queries,
    deletes,
    last: () => Object.fromEntries(queries.at(-1)!),
    /** Holds answers until the returned release is called. */
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

// Toasts live in a module-level store: one test's must not show in the next.
// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const table = () => screen.getByRole('table');
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('Users list', () => {
  it('shows the users of the first page, sorted by name, 10 a page', async () => {
    const api = serveUsers();
    await renderApp('/users');
    expect(screen.getByRole('heading', { level: 2, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByText('Manage users and their access permissions')).toBeInTheDocument();
    expect(await screen.findByText('First1 Last1')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('user1@example.com')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['User', 'Email', 'Actions']);
    expect(api.last()).toEqual({
      page: '1',
      rowsPerPage: '10',
      sortColumn: 'name',
      sortDescending: 'false',
    });
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /User/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(screen.getByRole('button', { name: 'Create User' })).toBeInTheDocument();
  });

  it('shows the e-mail in the User column of a user without a name yet', async () => {
    serveUsers({ rows: [aRow(3, { firstName: '', lastName: '', email: 'invited@example.com' })] });
    await renderApp('/users');
    await screen.findAllByText('invited@example.com');
    const [userCell, emailCell] = within(bodyRows()[0]!).getAllByRole('cell');
    expect(userCell).toHaveTextContent('invited@example.com');
    expect(emailCell).toHaveTextContent('invited@example.com');
  });

  it('sorts on the server from the header, keeping the sort in the URL', async () => {
    const api = serveUsers();
    const { user, router } = await renderApp('/users?page=2');
    await screen.findByText('First11 Last11');

    await user.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(api.last()).toMatchObject({ sortColumn: 'email' }));
    expect(api.last()).toMatchObject({ sortDescending: 'false', page: '1' });
    expect(locationOf(router)).toBe('/users?sort=email.asc');
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute(
        'aria-sort',
        'ascending',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(api.last()).toMatchObject({ sortDescending: 'true' }));
    expect(api.last()).toMatchObject({ sortColumn: 'email' });
    expect(locationOf(router)).toBe('/users?sort=email.desc');
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute(
        'aria-sort',
        'descending',
      ),
    );
  });

  it('searches once typing pauses, going back to page 1', async () => {
    const api = serveUsers();
    const { user, router } = await renderApp('/users?page=3');
    await screen.findByText('First21 Last21');
    const before = api.queries.length;

    await user.type(screen.getByPlaceholderText('Search users...'), 'ada');
    expect(screen.getByPlaceholderText('Search users...')).toHaveValue('ada');
    await waitFor(() => expect(locationOf(router)).toBe('/users?search=ada'));
    await waitFor(() => expect(api.queries.length).toBe(before + 1));
    expect(api.last()).toMatchObject({ search: 'ada', page: '1' });
    // Give a stray keystroke's request time to show up: there must be none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.queries.slice(before).map((q) => q.get('search'))).toEqual(['ada']);
  });

  it('opens a deep link with its page, search and sort', async () => {
    const api = serveUsers();
    await renderApp('/users?page=2&search=x&sort=email.desc');
    await screen.findByText('First11 Last11');
    expect(api.queries).toHaveLength(1);
    expect(api.last()).toEqual({
      page: '2',
      rowsPerPage: '10',
      search: 'x',
      sortColumn: 'email',
      sortDescending: 'true',
    });
    expect(screen.getByPlaceholderText('Search users...')).toHaveValue('x');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('falls back to defaults for a malformed URL', async () => {
    const api = serveUsers();
    await renderApp('/users?page=-4&sort=password.asc');
    await screen.findByText('First1 Last1');
    expect(api.last()).toMatchObject({ page: '1', sortColumn: 'name', sortDescending: 'false' });
  });

  it('pages with Next and Previous, keeping the rows on screen while the next page loads', async () => {
    const api = serveUsers();
    const { user, router } = await renderApp('/users');
    await screen.findByText('First1 Last1');

    const release = api.hold();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(api.last()).toMatchObject({ page: '2' }));
    expect(locationOf(router)).toBe('/users?page=2');
    // keepPreviousData: page 1 stays visible (and Refresh disabled) until page 2 arrives.
    expect(screen.getByText('First1 Last1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled();
    act(() => release());
    expect(await screen.findByText('First11 Last11')).toBeInTheDocument();
    expect(screen.queryByText('First1 Last1')).not.toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Previous/ }));
    await waitFor(() => expect(locationOf(router)).toBe('/users'));
    expect(await screen.findByText('First1 Last1')).toBeInTheDocument();
  });

  it('has no paging for a single page of users', async () => {
    serveUsers({ total: 4 });
    await renderApp('/users');
    await screen.findByText('First4 Last4');
    expect(screen.queryByText(/Page 1 of/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Next/ })).not.toBeInTheDocument();
  });

  it('says "No users found" when nobody matches', async () => {
    serveUsers({ rows: [] });
    await renderApp('/users?search=nobody');
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('shows a first-load failure inside the table', async () => {
    server.use(
      http.get(api('auth/check'), () => ok({ user: aUser() })),
      http.get(api('users/list'), () => fail(500, 'Database unavailable')),
    );
    await renderApp('/users');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching users');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    // The rest of the screen stays: title, search, refresh.
    expect(screen.getByRole('heading', { level: 2, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('refreshes on demand, Refresh disabled while it runs', async () => {
    const api = serveUsers();
    const { user } = await renderApp('/users');
    await screen.findByText('First1 Last1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled());
    const before = api.queries.length;

    const release = api.hold();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.queries.length).toBe(before + 1));
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled();
    act(() => release());
    // The 300 ms linger plus a re-render of ten rows: past waitFor's 1 s on a busy machine.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled(), {
      timeout: 3000,
    });
  });

  it('opens the user page from a row, by click or Enter', async () => {
    serveUserPage({
      users: [3, 4].map((id) =>
        aUserDetails({ id, firstName: `First${id}`, lastName: `Last${id}` }),
      ),
    });
    serveUsers();
    const { user, router } = await renderApp('/users');
    await user.click(await screen.findByText('user3@example.com'));
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=3'));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'First3 Last3' }),
    ).toBeInTheDocument();

    await act(() => router.navigate({ to: '/users' }));
    const row = (await screen.findByText('user4@example.com')).closest('tr')!;
    row.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=4'));
  });
});

const dialog = () => screen.getByRole('dialog');
const trash = (name: string) => screen.getByRole('button', { name: `Delete ${name}` });
/** Clicks a row's delete button and waits for the dialog (it opens with a transition). */
async function askToDelete(user: Awaited<ReturnType<typeof renderApp>>['user'], name: string) {
  await user.click(await screen.findByRole('button', { name: `Delete ${name}` }));
  return screen.findByRole('dialog');
}

describe('Users list: delete', () => {
  it('has a delete button on every row but the signed-in user’s own', async () => {
    serveUsers();
    await renderApp('/users');
    await screen.findByText('First1 Last1');
    const buttons = screen.getAllByRole('button', { name: /^Delete / });
    expect(buttons).toHaveLength(9);
    // Ada is user 7 here (aUser): her row is listed without one.
    expect(screen.getByText('First7 Last7')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete First7 Last7' })).not.toBeInTheDocument();
    expect(within(bodyRows()[6]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(bodyRows()[2]!).getByRole('button')).toHaveAccessibleName('Delete First3 Last3');
  });

  it('asks first, without opening the user page; Cancel deletes nothing', async () => {
    const api = serveUsers();
    const { user, router } = await renderApp('/users');
    await screen.findByText('First3 Last3');
    expect(await askToDelete(user, 'First3 Last3')).toHaveTextContent('Delete First3 Last3?');
    expect(dialog()).toHaveTextContent(
      'This user will be deleted completely and signed out everywhere. This action cannot be reversed.',
    );
    expect(locationOf(router)).toBe('/users');

    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.deletes).toEqual([]);
    expect(locationOf(router)).toBe('/users');
  });

  it('deletes on confirmation, toasts the server’s message and reloads the list', async () => {
    const api = serveUsers();
    const { user } = await renderApp('/users');
    await screen.findByText('First3 Last3');
    const before = api.queries.length;

    await askToDelete(user, 'First3 Last3');
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('User deleted')).toBeInTheDocument();
    expect(api.deletes).toEqual([3]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.queries.length).toBeGreaterThan(before);
    expect(screen.queryByText('First3 Last3')).not.toBeInTheDocument();
    expect(screen.getByText('First11 Last11')).toBeInTheDocument();
  });

  it('keeps the dialog open with the error when the delete fails', async () => {
    const api = serveUsers({ deleteFailure: { status: 500, message: 'Database unavailable' } });
    const { user } = await renderApp('/users');
    await screen.findByText('First3 Last3');

    await askToDelete(user, 'First3 Last3');
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Error deleting users: Database unavailable',
    );
    expect(api.deletes).toEqual([3]);
    expect(dialog()).toHaveTextContent('Delete First3 Last3?');
    expect(screen.getByText('First3 Last3')).toBeInTheDocument();
    expect(screen.queryByText('User deleted')).not.toBeInTheDocument();

    // Closing forgets the error: the next attempt starts clean.
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      within(await askToDelete(user, 'First3 Last3')).queryByRole('alert'),
    ).not.toBeInTheDocument();
  });

  it('names an invited user by e-mail in the button and the dialog', async () => {
    serveUsers({ rows: [aRow(3, { firstName: '', lastName: '', email: 'invited@example.com' })] });
    const { user } = await renderApp('/users');
    expect(await askToDelete(user, 'invited@example.com')).toHaveTextContent(
      'Delete invited@example.com?',
    );
  });

  it('works from the keyboard: Enter on the button opens the dialog, not the user page', async () => {
    serveUsers();
    const { user, router } = await renderApp('/users');
    await screen.findByText('First3 Last3');
    trash('First3 Last3').focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog')).toHaveTextContent('Delete First3 Last3?');
    expect(locationOf(router)).toBe('/users');
  });

  it('goes to the new last page when the only user of the last page is deleted', async () => {
    serveUsers({ total: 21 });
    const { user, router } = await renderApp('/users?page=3');
    await askToDelete(user, 'First21 Last21');
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(locationOf(router)).toBe('/users?page=2'));
    expect(await screen.findByText('First11 Last11')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });
});

describe('Users list: a user who is not an Admin', () => {
  it('offers neither Create User nor delete buttons', async () => {
    serveUsers();
    server.use(http.get(api('auth/check'), () => ok({ user: aUser({ isAdmin: false }) })));
    await renderApp('/users');
    await screen.findByText('First1 Last1');
    expect(screen.queryByRole('button', { name: /^Delete / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create User' })).not.toBeInTheDocument();
    expect(within(table()).getAllByRole('columnheader')).toHaveLength(2);
  });
});

describe('Users list: Create User', () => {
  it('opens Add User', async () => {
    serveUsers();
    serveRoles();
    serveTeams([]);
    const { user, router } = await renderApp('/users');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await waitFor(() => expect(locationOf(router)).toBe('/createUser'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Add User' })).toBeInTheDocument();
  });
});
