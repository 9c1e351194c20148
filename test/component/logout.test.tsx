import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../src/api/session-store';
import { authQueries } from '../../src/queries/auth';
import { noVerifiedSession, storeSession, storedUser } from './support/identity-helpers';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';

// The Dashboard, where signing in lands, loads the VM usage.
beforeEach(() => void serveDashboard());

/** A signed-in browser: a remembered session, a token and a cached auth check. */
function signedIn() {
  sessionStore.setRememberMe(true);
  sessionStore.setToken('token-1');
  storeSession({ rememberMe: true, user: { resellerName: 'Acme Cloud' } });
  localStorage.setItem('sidebar-collapsed', 'true');
  sessionStorage.setItem('anything', 'else');
}

/** Holds the logout answer until the test has put the auth check in the cache. */
function gatedLogout(answer: () => Response) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let calls = 0;
  let authorization: string | null = null;
  server.use(
    http.post(api('auth/logout'), async ({ request }) => {
      calls += 1;
      authorization = request.headers.get('Authorization');
      await gate;
      return answer();
    }),
  );
  return { open, calls: () => calls, authorization: () => authorization };
}

describe('logout', () => {
  it('logs out once, then clears the browser storage and the cached session', async () => {
    noVerifiedSession();
    signedIn();
    const logout = gatedLogout(() => ok(null, 'Logged out'));
    const { router, user, queryClient } = await renderApp('/logout');
    queryClient.setQueryData(authQueries.check().queryKey, { user: storedUser() });

    expect(await screen.findByRole('heading', { name: 'Logging Out...' })).toBeVisible();
    expect(document.title).toBe('Acme Cloud');
    logout.open();

    expect(await screen.findByRole('heading', { name: 'Logout Successful' })).toBeVisible();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(logout.calls()).toBe(1);
    expect(logout.authorization()).toBe('Bearer token-1');
    expect(localStorage).toHaveLength(0);
    expect(sessionStorage).toHaveLength(0);
    expect(queryClient.getQueryData(authQueries.check().queryKey)).toBeUndefined();
    expect(document.title).toBe('Launchpad');

    await user.click(screen.getByRole('link', { name: 'Return to Login' }));
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('clears everything even when the call fails, and says so under its lead', async () => {
    signedIn();
    const logout = gatedLogout(() => fail(500, 'Internal Server Error'));
    const { queryClient } = await renderApp('/logout');
    queryClient.setQueryData(authQueries.check().queryKey, { user: storedUser() });
    logout.open();

    expect(await screen.findByRole('heading', { name: 'Logout Successful' })).toBeVisible();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Error logging out')).toBeInTheDocument();
    expect(within(alert).getByText('Internal Server Error')).toBeInTheDocument();
    expect(localStorage).toHaveLength(0);
    expect(sessionStorage).toHaveLength(0);
    expect(queryClient.getQueryData(authQueries.check().queryKey)).toBeUndefined();
    expect(screen.getByRole('link', { name: 'Return to Login' })).toBeVisible();
  });

  it('leaves the protected area unreachable afterwards', async () => {
    noVerifiedSession();
    signedIn();
    const logout = gatedLogout(() => ok(null, 'Logged out'));
    const { router, queryClient } = await renderApp('/logout');
    queryClient.setQueryData(authQueries.check().queryKey, { user: storedUser() });
    logout.open();
    await screen.findByRole('heading', { name: 'Logout Successful' });

    await router.navigate({ to: '/' });
    await screen.findByRole('heading', { name: 'Login' });
    expect(router.state.location.pathname).toBe('/login');
  });
});
