import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../src/api/contract/auth';
import { DEFAULT_TAB_ICON } from '../../src/components/branding';
import { aUser } from './support/fixtures';
import { aSecondFactorStatus } from './support/second-factor-fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { setViewportWidth } from './support/viewport';
import { serveDashboard } from './support/dashboard-fixtures';

// The Dashboard, where signing in lands, loads the VM usage.
beforeEach(() => void serveDashboard());

const signedIn = (overrides: Partial<User> = {}) =>
  server.use(http.get(api('auth/check'), () => ok({ user: aUser(overrides) })));

/** Empty answers for what the screens behind the links load. */
const serveScreens = () =>
  server.use(
    http.get(api('teams/list'), () =>
      ok({ data: [], unassignedUsers: 0, unassignedVMs: 0, totalPages: 1 }),
    ),
    http.get(api('users/details/:id'), ({ params }) =>
      ok({
        ...aUser({ id: Number(params.id), firstName: `User${String(params.id)}` }),
        activated: true,
      }),
    ),
    http.get(api('users/teams/:id'), () => ok({ data: [], totalPages: 1 })),
    http.get(api('apiTokens/list'), () => ok([])),
    http.get(api('sshKeys/list'), () => ok([])),
    http.get(api('sessions/list'), () => ok([])),
    http.get(api('auth/passkeys/list'), () => ok([])),
    http.get(api('auth/secondFactor'), () => ok(aSecondFactorStatus())),
    http.get(api('webhooks/list'), () => ok([])),
    http.get(api('roles/userRoles'), () => ok([])),
    http.get(api('virtualMachines/list'), () => ok({ data: [], totalPages: 1 })),
    http.get(api('networks/list'), () => ok({ data: [], totalPages: 1 })),
    http.get(api('virtualMachines/listCombinedRegions'), () => ok([])),
  );

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const navLink = (name: string) => within(mainNav()).getByRole('link', { name });

describe('protected layout: authentication check', () => {
  it('runs before the screen loads: no session goes to /login without loading the screen', async () => {
    let listCalls = 0;
    server.use(
      http.get(api('auth/check'), () => fail(401, 'Not authenticated')),
      http.get(api('users/list'), () => {
        listCalls += 1;
        return ok({ data: [], totalPages: 1 });
      }),
    );
    sessionStorage.setItem('session', JSON.stringify({ user: aUser() }));
    const { router } = await renderApp('/users');
    expect(router.state.location.pathname).toBe('/login');
    expect(listCalls).toBe(0);
    expect(sessionStorage.getItem('session')).toBeNull();
  });
});

describe('protected layout: sidebar', () => {
  // Docked, as on a desktop (behind the burger it is drawn when first opened).
  beforeEach(() => setViewportWidth(1280));

  it('shows the nine links in order, Profile pointing at the current user', async () => {
    signedIn();
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    const links = within(mainNav()).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Virtual Machines',
      'Networks',
      'Teams',
      'Users',
      'Settings',
      'Profile',
      'Support',
      'Logout',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/',
      '/virtualMachines',
      '/networks',
      '/teams',
      '/users',
      '/settings',
      '/user?id=7',
      '/support',
      '/logout',
    ]);
    expect(navLink('Dashboard')).toHaveAttribute('aria-current', 'page');
    expect(navLink('Users')).not.toHaveAttribute('aria-current');
  });

  // Six screens, each loaded for the first time in the file: seconds on a busy 2-core machine.
  it('every link lands on a titled page', { timeout: 15_000 }, async () => {
    signedIn();
    serveScreens();
    const { user, router } = await renderApp('/');
    for (const [name, title] of [
      ['Virtual Machines', 'Virtual Machines'],
      ['Networks', 'Networks'],
      ['Teams', 'Teams'],
      ['Settings', 'Settings'],
      ['Support', 'Support'],
      ['Profile', 'User7 Lovelace'],
    ] as const) {
      await user.click(navLink(name));
      expect(await screen.findByRole('heading', { level: 2, name: title })).toBeInTheDocument();
      expect(navLink(name)).toHaveAttribute('aria-current', 'page');
    }
    expect(router.state.location.href).toBe('/user?id=7');
  });

  it('highlights Profile on the own user page and Users on somebody else’s', async () => {
    signedIn({ id: 7 });
    serveScreens();
    const { router } = await renderApp('/user?id=7');
    await screen.findByRole('heading', { name: 'User7 Lovelace' });
    expect(navLink('Profile')).toHaveAttribute('aria-current', 'page');
    expect(navLink('Users')).not.toHaveAttribute('aria-current');

    await act(() => router.navigate({ to: '/user', search: { id: 8 } }));
    await waitFor(() => expect(navLink('Users')).toHaveAttribute('aria-current', 'page'));
    expect(navLink('Profile')).not.toHaveAttribute('aria-current');
    expect(
      within(mainNav())
        .getAllByRole('link')
        .filter((link) => link.getAttribute('aria-current') === 'page'),
    ).toHaveLength(1);
  });

  it('shows the user name and company at the bottom', async () => {
    signedIn();
    await renderApp('/');
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('Analytical Engines')).toBeInTheDocument();
  });
});

describe('protected layout: collapsing (desktop)', () => {
  it('collapses to icons, hides name and company, and saves the choice', async () => {
    setViewportWidth(1280);
    signedIn();
    const { user } = await renderApp('/');
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Toggle navigation' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(localStorage.getItem('sidebar-collapsed')).toBe('true');
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
    expect(screen.queryByText('Analytical Engines')).not.toBeInTheDocument();
    // Titles become tooltips: the links keep their names but show no text.
    expect(navLink('Users')).toBeInTheDocument();
    expect(navLink('Users')).not.toHaveTextContent('Users');

    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(localStorage.getItem('sidebar-collapsed')).toBe('false');
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('restores the collapsed state on load', async () => {
    setViewportWidth(1280);
    localStorage.setItem('sidebar-collapsed', 'true');
    signedIn();
    await renderApp('/');
    expect(await screen.findByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
  });

  it('shows the title of a collapsed link as a delayed tooltip', async () => {
    setViewportWidth(1280);
    localStorage.setItem('sidebar-collapsed', 'true');
    signedIn();
    // Hovering a link preloads its screen.
    serveScreens();
    const { user } = await renderApp('/');
    await user.hover(await screen.findByRole('link', { name: 'Networks' }));
    // Tooltips open after 700 ms, not at once.
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent('Networks');
  });
});

describe('protected layout: mobile menu (under 1024 px)', () => {
  it('opens with the burger and closes when a link is chosen', async () => {
    setViewportWidth(390);
    signedIn();
    serveScreens();
    const { user, router } = await renderApp('/');
    const burger = await screen.findByRole('button', { name: 'Toggle navigation' });
    expect(screen.queryByRole('button', { name: 'Collapse sidebar' })).not.toBeInTheDocument();
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    // Not drawn until first opened.
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    await user.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    await user.click(navLink('Teams'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    // Kept once drawn: closing slides it away with its links in it.
    expect(mainNav()).toBeInTheDocument();
  });

  it('is forced closed when the window reaches 1024 px', async () => {
    setViewportWidth(1023);
    signedIn();
    const { user } = await renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Toggle navigation' }));
    expect(screen.getByRole('button', { name: 'Toggle navigation' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    act(() => setViewportWidth(1024));
    expect(screen.queryByRole('button', { name: 'Toggle navigation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeInTheDocument();
    act(() => setViewportWidth(800));
    expect(screen.getByRole('button', { name: 'Toggle navigation' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });
});

describe('protected layout: branding', () => {
  it('uses the reseller name as title, its tab icon and its logo', async () => {
    setViewportWidth(1280);
    signedIn({
      resellerName: 'Acme Cloud',
      tabLogoUrl: 'https://cdn.example.com/acme.ico',
      logoUrl: 'https://cdn.example.com/acme.svg',
    });
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(document.title).toBe('Acme Cloud'));
    expect(document.getElementById('tab-icon')).toHaveAttribute(
      'href',
      'https://cdn.example.com/acme.ico',
    );
    expect(screen.getByRole('img', { name: 'Acme Cloud' })).toHaveAttribute(
      'src',
      'https://cdn.example.com/acme.svg',
    );
  });

  it('shows the reseller name instead of a logo that cannot be loaded', async () => {
    setViewportWidth(1280);
    signedIn({ resellerName: 'Acme Cloud', logoUrl: 'https://cdn.example.com/gone.svg' });
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    const logo = screen.getByRole('img', { name: 'Acme Cloud' });

    fireEvent.error(logo);

    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('Acme Cloud')).toBeInTheDocument();
  });

  it('shows the reseller name when there is no logo', async () => {
    setViewportWidth(1280);
    signedIn({ resellerName: 'Acme Cloud' });
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(screen.getByText('Acme Cloud')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('falls back to "Launchpad" and a plain white circle', async () => {
    document.title = 'stale';
    document.querySelectorAll('link#tab-icon').forEach((link) => link.remove());
    const icon = document.createElement('link');
    icon.id = 'tab-icon';
    icon.rel = 'icon';
    icon.href = 'https://stale.example.com/x.ico';
    document.head.appendChild(icon);
    setViewportWidth(1280);
    signedIn({ resellerName: null, tabLogoUrl: null, logoUrl: null });
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(document.title).toBe('Launchpad'));
    expect(document.querySelectorAll('link#tab-icon')).toHaveLength(1);
    expect(document.getElementById('tab-icon')).toHaveAttribute('href', DEFAULT_TAB_ICON);
    expect(DEFAULT_TAB_ICON).toContain("fill='white'");
    expect(screen.getByText('Launchpad')).toBeInTheDocument();
    icon.remove();
  });
});

describe('protected layout: loading bar', () => {
  it('shows while a request is in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    signedIn();
    server.use(
      http.get(api('users/list'), async () => {
        await gate;
        return ok({ data: [], totalPages: 1 });
      }),
    );
    await renderApp('/users');
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    release();
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument(),
    );
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });
});
