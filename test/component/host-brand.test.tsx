import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../src/api/contract/auth';
import { brandColorCss } from '../../src/api/contract/brand-color';
import type { HostBrand } from '../../src/api/contract/reseller-settings';
import { DEFAULT_TAB_ICON } from '../../src/components/branding';
import { aUser } from './support/fixtures';
import { noVerifiedSession, storeSession } from './support/identity-helpers';
import { api, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { serveDashboard } from './support/dashboard-fixtures';
import { setViewportWidth } from './support/viewport';

/**
 * On a reseller's domain the server writes the reseller's brand into the page
 * (`<meta name="launchpad-brand">`): the public screens draw it before anyone signs in. Signed
 * in, the console takes the user's reseller's primary colour.
 */

beforeEach(() => void serveDashboard());

function writeHostBrand(brand: HostBrand) {
  const meta = document.createElement('meta');
  meta.name = 'launchpad-brand';
  meta.content = JSON.stringify(brand);
  document.head.append(meta);
}
afterEach(() => {
  document.querySelectorAll('meta[name="launchpad-brand"]').forEach((meta) => meta.remove());
});

const SKYLINE: HostBrand = {
  name: 'Skyline Cloud',
  logoUrl: 'https://cdn.skyline.test/logo.svg',
  tabLogoUrl: 'https://cdn.skyline.test/tab.svg',
};

describe("the public screens on a reseller's domain", () => {
  it.each(['/login', '/forgotPassword'])(
    '%s shows its logo, title and tab icon, over a stored session of another brand',
    async (path) => {
      noVerifiedSession();
      storeSession({ user: { resellerName: 'Other Cloud', logoUrl: 'https://other.test/x.svg' } });
      writeHostBrand(SKYLINE);
      await renderApp(path);
      const logo = await screen.findByRole('img', { name: 'Skyline Cloud' });
      expect(logo).toHaveAttribute('src', SKYLINE.logoUrl);
      await waitFor(() => expect(document.title).toBe('Skyline Cloud'));
      expect(document.getElementById('tab-icon')).toHaveAttribute('href', SKYLINE.tabLogoUrl);
      expect(screen.queryByText('Launchpad')).not.toBeInTheDocument();
    },
  );

  it('a brand without a logo shows its name', async () => {
    noVerifiedSession();
    writeHostBrand({ name: 'Skyline Cloud', logoUrl: null, tabLogoUrl: null });
    await renderApp('/login');
    expect(await screen.findByText('Skyline Cloud')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(document.getElementById('tab-icon')).toHaveAttribute('href', DEFAULT_TAB_ICON);
  });

  it('elsewhere, the stored session brands them, else the product', async () => {
    noVerifiedSession();
    storeSession({ user: { resellerName: 'Other Cloud', logoUrl: 'https://other.test/x.svg' } });
    const view = await renderApp('/login');
    expect(await screen.findByRole('img', { name: 'Other Cloud' })).toBeInTheDocument();
    view.unmount();
    sessionStorage.clear();
    await renderApp('/login');
    expect(await screen.findByText('Launchpad')).toBeInTheDocument();
    expect(document.title).toBe('Launchpad');
  });
});

describe('signed in', () => {
  const brandStyles = () => [
    ...document.querySelectorAll<HTMLStyleElement>('style[data-brand-color]'),
  ];
  const signedIn = (overrides: Partial<User>) =>
    server.use(http.get(api('auth/check'), () => ok({ user: aUser(overrides) })));

  it("applies the reseller's primary colour, and takes it away when the console goes", async () => {
    setViewportWidth(1280);
    signedIn({ primaryColor: '#0b5394' });
    const view = await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(brandStyles()).toHaveLength(1));
    expect(brandStyles()[0]!.textContent).toBe(brandColorCss('#0b5394'));
    view.unmount();
    expect(brandStyles()).toHaveLength(0);
  });

  it('without a colour, no stylesheet', async () => {
    setViewportWidth(1280);
    signedIn({ primaryColor: null });
    await renderApp('/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(brandStyles()).toHaveLength(0);
  });
});
