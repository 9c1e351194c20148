import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { serveDashboard } from './support/dashboard-fixtures';
import {
  aCustomer,
  serveCustomer,
  serveCustomers,
  signInReseller,
} from './support/customers-fixtures';
import { api, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { setViewportWidth } from './support/viewport';

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const navLink = (name: string) => within(mainNav()).getByRole('link', { name });
const linkNames = () =>
  within(mainNav())
    .getAllByRole('link')
    .map((link) => link.textContent);

// Docked sidebar, as on a desktop (behind the burger it is drawn when first opened).
beforeEach(() => setViewportWidth(1280));

describe('Customers in the sidebar', { timeout: 15_000 }, () => {
  it("is offered to a reseller's staff right after Users, and leads to the list", async () => {
    signInReseller();
    serveDashboard();
    serveCustomers();
    const { user, router } = await renderApp('/');
    await screen.findByRole('heading', { level: 2, name: 'Dashboard' });
    expect(linkNames()).toEqual([
      'Dashboard',
      'Virtual Machines',
      'Networks',
      'Teams',
      'Users',
      'Customers',
      'Settings',
      'Profile',
      'Support',
      'Logout',
    ]);
    expect(navLink('Customers')).toHaveAttribute('href', '/customers');
    expect(navLink('Customers')).not.toHaveAttribute('aria-current');

    await user.click(navLink('Customers'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Customers' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/customers');
    expect(navLink('Customers')).toHaveAttribute('aria-current', 'page');
  });

  it('is highlighted on the new customer form, not Users', async () => {
    signInReseller();
    await renderApp('/customers/new');
    await screen.findByRole('heading', { level: 2, name: 'New customer' });
    expect(navLink('Customers')).toHaveAttribute('aria-current', 'page');
    expect(navLink('Users')).not.toHaveAttribute('aria-current');
  });

  it('is highlighted on a customer’s page', async () => {
    signInReseller();
    serveCustomer({ ...aCustomer(42), adminList: [] });
    await renderApp('/customers/42');
    await screen.findByRole('heading', { level: 2, name: 'Customer 42' });
    expect(navLink('Customers')).toHaveAttribute('aria-current', 'page');
  });

  it('is not offered to anyone else', async () => {
    signIn({ isReseller: false });
    serveDashboard();
    await renderApp('/');
    await screen.findByRole('heading', { level: 2, name: 'Dashboard' });
    expect(linkNames()).toContain('Users');
    expect(linkNames()).not.toContain('Customers');
  });
});

describe('the customer screens, to a user who is not a reseller', { timeout: 15_000 }, () => {
  it.each(['/customers', '/customers?page=2', '/customers/new', '/customers/42'])(
    '%s is a page that does not exist, inside the signed-in layout',
    async (path) => {
      signIn({ isReseller: false });
      // Nothing of the reseller's API is asked for.
      const asked: string[] = [];
      server.use(
        http.all(api('reseller/*'), ({ request }) => {
          asked.push(request.url);
          return ok(null);
        }),
      );
      const { router } = await renderApp(path);

      expect(
        await screen.findByRole(
          'heading',
          { level: 2, name: 'Page not found' },
          { timeout: 5_000 },
        ),
      ).toBeInTheDocument();
      expect(screen.getByText(path.split('?')[0]!)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/');
      // The layout is there, once: the sidebar and the signed-in user.
      expect(navLink('Users')).toBeInTheDocument();
      expect(screen.getAllByText('Ada Lovelace')).toHaveLength(1);
      expect(screen.queryByRole('heading', { name: 'Customers' })).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'New customer' })).not.toBeInTheDocument();
      expect(screen.queryByRole('textbox', { name: 'Company name' })).not.toBeInTheDocument();
      await waitFor(() => expect(router.state.status).toBe('idle'));
      expect(asked).toEqual([]);
    },
  );
});
