import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/components/date-format';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { aUserDetails, serveUserPage, signedInAs } from './support/users-fixtures';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

/** A session as `GET /sessions/list` sends it (dates as ISO strings on the wire). */
const aSession = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  browser: 'Chrome 131',
  system: 'macOS 14.5',
  device: 'desktop',
  userAgent: 'Mozilla/5.0 (Macintosh) Chrome/131.0.0.0',
  address: '198.51.100.4',
  signedInAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-21T09:30:00.000Z',
  secondFactor: 'email',
  current: false,
  ...overrides,
});

/** A small fake of the sessions routes over one user's sessions, recording what is sent. */
function serveSessions(rows: ReturnType<typeof aSession>[]) {
  let store = rows.map((row) => ({ ...row }));
  const sent = { deletes: [] as number[], deleteOthers: 0, deleteAlls: [] as number[] };
  server.use(
    http.get(api('sessions/list'), () => ok(store)),
    http.delete(api('sessions/delete/:id'), ({ params }) => {
      sent.deletes.push(Number(params.id));
      store = store.filter((row) => row.id !== Number(params.id));
      return ok(null, 'Signed out of that session');
    }),
    http.post(api('sessions/deleteOthers'), () => {
      sent.deleteOthers += 1;
      const ended = store.filter((row) => !row.current).length;
      store = store.filter((row) => row.current);
      return ok({ ended }, 'Signed out everywhere else');
    }),
    http.post(api('sessions/deleteAll/:userId'), ({ params }) => {
      sent.deleteAlls.push(Number(params.userId));
      return ok({ ended: 2 }, 'All of the user’s sessions have ended');
    }),
  );
  return { sent };
}

const threeSessions = () => [
  aSession(1, {
    browser: 'Firefox 132',
    system: 'Linux',
    address: '203.0.113.9',
    current: true,
    secondFactor: 'passkey',
  }),
  aSession(2),
  aSession(3, {
    browser: 'Safari 17',
    system: 'iOS 17.5',
    device: 'mobile',
    address: '192.0.2.44',
  }),
];

const table = () => screen.getByRole('table', { name: 'Sessions' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const rowOf = (text: string) => within(table()).getByText(text).closest('tr')!;

/** Ada (id 7) on her own profile with these sessions; the page's fake first, then the sessions'. */
async function openOwnProfile(sessions: ReturnType<typeof aSession>[], failure?: () => void) {
  serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
  const { sent } = serveSessions(sessions);
  failure?.();
  const view = await renderApp('/user?id=7');
  await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' });
  await waitFor(() => expect(within(table()).queryByText('Chrome 131 on macOS 14.5')).toBeTruthy());
  return { ...view, sent };
}

describe('Profile → Sessions', () => {
  it('lists where the user is signed in: browser and system, address, times, this one marked', async () => {
    await openOwnProfile(threeSessions());

    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Browser', 'Address', 'Signed in', 'Last seen', 'Actions']);
    expect(rows()).toHaveLength(3);
    const current = within(rowOf('Firefox 132 on Linux'));
    expect(current.getByText('This session')).toBeInTheDocument();
    expect(current.getByText('203.0.113.9')).toBeInTheDocument();
    expect(current.getByText('Passkey')).toBeInTheDocument();
    expect(current.getByText('Now')).toBeInTheDocument();
    // This browser is signed out with Logout, not from the list.
    expect(current.queryByRole('button', { name: /Sign out/ })).not.toBeInTheDocument();

    const mac = within(rowOf('Chrome 131 on macOS 14.5'));
    expect(mac.getByText('198.51.100.4')).toBeInTheDocument();
    expect(mac.getByText(formatDateTime(new Date('2026-11-20T08:00:00.000Z')))).toBeInTheDocument();
    expect(mac.getByText(formatDateTime(new Date('2026-11-21T09:30:00.000Z')))).toBeInTheDocument();
    expect(mac.getByText('E-mailed code')).toBeInTheDocument();
    expect(mac.queryByText('This session')).not.toBeInTheDocument();
    expect(within(rowOf('Safari 17 on iOS 17.5')).getByRole('button')).toHaveAccessibleName(
      'Sign out Safari 17 on iOS 17.5',
    );
  });

  it('signs out of one session once confirmed, and lists the rest', async () => {
    const { user, sent } = await openOwnProfile(threeSessions());

    await user.click(screen.getByRole('button', { name: 'Sign out Safari 17 on iOS 17.5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out Safari 17 on iOS 17.5?' });
    expect(dialog).toHaveTextContent('from 192.0.2.44');
    expect(sent.deletes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByText('Signed out of that session')).toBeInTheDocument();
    expect(sent.deletes).toEqual([3]);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(table()).queryByText('Safari 17 on iOS 17.5')).not.toBeInTheDocument();
  });

  it('keeps the dialog open with the server’s message when signing out fails', async () => {
    const { user } = await openOwnProfile(threeSessions(), () =>
      server.use(http.delete(api('sessions/delete/:id'), () => fail(404, 'Session not found'))),
    );

    await user.click(screen.getByRole('button', { name: 'Sign out Chrome 131 on macOS 14.5' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));

    expect(await within(dialog).findByText(/Session not found/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Error signing out of the session/)).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
  });

  it('signs out everywhere else once confirmed; Cancel sends nothing', async () => {
    const { user, sent } = await openOwnProfile(threeSessions());

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    let dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveTextContent('All 2 of your other sessions are signed out at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.deleteOthers).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));

    expect(await screen.findByText('Signed out everywhere else')).toBeInTheDocument();
    expect(sent.deleteOthers).toBe(1);
    await waitFor(() => expect(rows()).toHaveLength(1));
    // Nothing else left to sign out of (once the dialog, with its own such button, has gone).
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Sign out everywhere else' }),
      ).not.toBeInTheDocument(),
    );
  });

  it('shows a failure to load the sessions inside the section', async () => {
    serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
    server.use(http.get(api('sessions/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/user?id=7');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching sessions')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
  });
});

describe('another user’s page', () => {
  it('lets an Admin end all of the user’s sessions once confirmed', async () => {
    serveUserPage({ memberships: { 3: [] } });
    signedInAs({ isAdmin: true });
    const { sent } = serveSessions([]);
    const { user } = await renderApp('/user?id=3');
    await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' });
    // Their sessions are theirs: the Admin sees none listed.
    expect(screen.queryByRole('table', { name: 'Sessions' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'End all sessions' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'End all of Grace Hopper’s sessions?',
    });
    expect(dialog).toHaveTextContent('Grace Hopper is signed out everywhere at once');
    await user.click(within(dialog).getByRole('button', { name: 'End all sessions' }));

    expect(await screen.findByText('All of the user’s sessions have ended')).toBeInTheDocument();
    expect(sent.deleteAlls).toEqual([3]);
  });

  it('shows nothing of it to a user who is not an Admin', async () => {
    serveUserPage({ memberships: { 3: [] } });
    signedInAs({ isAdmin: false });
    serveSessions([]);
    await renderApp('/user?id=3');
    await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' });
    await screen.findByRole('heading', { name: 'Team Memberships' });
    expect(screen.queryByRole('button', { name: 'End all sessions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Sessions' })).not.toBeInTheDocument();
  });
});
