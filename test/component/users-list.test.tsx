import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/api/contract/users';
import { aUser } from './fixtures';
import { api, fail, http, ok, server } from './msw';
import { locationOf, renderApp } from './render';

/** A users/list row as the API sends it. */
const aRow = (id: number, overrides: Partial<Omit<UserRow, 'createdAt'>> = {}) => ({
  id,
  firstName: `First${id}`,
  lastName: `Last${id}`,
  email: `user${id}@example.com`,
  createdAt: '2026-01-02T03:04:05.000Z',
  isAdmin: false,
  ...overrides,
});

/**
 * Serves users/list from a fake directory of `total` users, 10 a page, and records every query
 * string it receives.
 */
function serveUsers({
  total = 25,
  rows,
}: { total?: number; rows?: ReturnType<typeof aRow>[] } = {}) {
  const queries: URLSearchParams[] = [];
  let gate: Promise<void> | undefined;
  server.use(
    http.get(api('auth/check'), () => ok({ user: aUser() })),
    http.get(api('users/list'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      if (gate) await gate;
      const page = Number(params.get('page'));
      const size = Number(params.get('rowsPerPage'));
      const all = rows ?? Array.from({ length: total }, (_, i) => aRow(i + 1));
      return ok({
        data: all.slice((page - 1) * size, page * size),
        totalPages: Math.max(1, Math.ceil(all.length / size)),
      });
    }),
  );
  return {
    queries,
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
    ).toEqual(['User', 'Email']);
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
    // No actions beyond reading in this issue.
    expect(screen.queryByRole('button', { name: /Create User/ })).not.toBeInTheDocument();
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
    await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled());
  });

  it('opens the user page from a row, by click or Enter', async () => {
    serveUsers();
    const { user, router } = await renderApp('/users');
    await user.click(await screen.findByText('user3@example.com'));
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=3'));
    expect(await screen.findByRole('heading', { level: 2, name: 'User' })).toBeInTheDocument();

    await act(() => router.navigate({ to: '/users' }));
    const row = (await screen.findByText('user4@example.com')).closest('tr')!;
    row.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(locationOf(router)).toBe('/user?id=4'));
  });
});
