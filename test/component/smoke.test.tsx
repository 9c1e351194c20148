import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { aUser } from './support/fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';

// The Dashboard, where signing in lands, loads the VM usage.
beforeEach(() => void serveDashboard());

describe('protected layout', () => {
  it('redirects to /login when the auth check fails', async () => {
    server.use(http.get(api('auth/check'), () => fail(401, 'Not authenticated')));
    const { router } = await renderApp('/');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the dashboard to a verified session', async () => {
    server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
    await renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
