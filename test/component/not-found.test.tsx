import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { aUser } from './support/fixtures';
import { noVerifiedSession } from './support/identity-helpers';
import { api, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';
import { setViewportWidth } from './support/viewport';

// The Dashboard, where the way back leads, loads the VM usage.
beforeEach(() => void serveDashboard());

const signedIn = () => server.use(http.get(api('auth/check'), () => ok({ user: aUser() })));
// Its code loads on demand, then the layout and the screen draw in deferred renders: slow on a
// busy machine.
const notFoundHeading = () =>
  screen.findByRole('heading', { name: 'Page not found' }, { timeout: 5_000 });
const mainNav = () => screen.queryByRole('navigation', { name: 'Main' });

describe('an address that leads nowhere', { timeout: 15_000 }, () => {
  // Docked sidebar, as on a desktop.
  beforeEach(() => setViewportWidth(1280));

  it('shows "Page not found" inside the signed-in layout, with the way to the dashboard', async () => {
    signedIn();
    const { router, user } = await renderApp('/doesNotExist');

    const heading = await notFoundHeading();
    expect(heading.tagName).toBe('H2');
    expect(screen.getByText('/doesNotExist')).toBeInTheDocument();
    // The layout is there: the sidebar with its links and the signed-in user.
    expect(within(mainNav()!).getByRole('link', { name: 'Virtual Machines' })).toBeVisible();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.queryByText('Not Found')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Go to Dashboard' }));
    expect(
      await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows it inside the layout under a signed-in screen too', async () => {
    signedIn();
    await renderApp('/virtualMachineDetails/5/oops');

    await notFoundHeading();
    expect(screen.getByText('/virtualMachineDetails/5/oops')).toBeInTheDocument();
    expect(mainNav()).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/');
  });

  it('shows a card outside the layout to a visitor, with the way to sign in', async () => {
    noVerifiedSession();
    const { router, user } = await renderApp('/doesNotExist');

    const heading = await notFoundHeading();
    expect(heading.tagName).toBe('H1');
    expect(screen.getByText('/doesNotExist')).toBeInTheDocument();
    expect(mainNav()).not.toBeInTheDocument();
    // Nothing signed-in is offered to a visitor.
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Go to Login' }));
    expect(
      await screen.findByRole('heading', { name: 'Login' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the card for an unknown address under a public page', async () => {
    noVerifiedSession();
    await renderApp('/forgotPassword/extra');

    await notFoundHeading();
    expect(screen.getByText('/forgotPassword/extra')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });
});
