import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { serveDashboard } from './support/dashboard-fixtures';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';

const NEW_CUSTOMER = 'https://orders.skyline.example/new-customer';
const ACCOUNT_CHANGES = 'https://orders.skyline.example/account-changes';

const card = (name: string) => screen.getByRole('region', { name });

describe('Order Services', { timeout: 15_000 }, () => {
  it("shows a reseller the two order forms, each opening the reseller's URL in a new tab", async () => {
    signIn({
      isReseller: true,
      orderUrls: { newCustomer: NEW_CUSTOMER, accountChanges: ACCOUNT_CHANGES },
    });
    await renderApp('/orderServices');

    expect(
      await screen.findByRole('heading', { level: 2, name: 'Order Services' }),
    ).toBeInTheDocument();
    for (const [name, href] of [
      ['New Customer', NEW_CUSTOMER],
      ['Account Changes', ACCOUNT_CHANGES],
    ] as const) {
      const link = within(card(name)).getByRole('link', { name: new RegExp(name) });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      expect(link).toHaveTextContent('Open order form');
    }
  });

  it('goes back to the dashboard with the back arrow', async () => {
    signIn({ isReseller: true });
    serveDashboard();
    const { user, router } = await renderApp('/orderServices');
    await screen.findByRole('heading', { level: 2, name: 'Order Services' });

    await user.click(screen.getByRole('button', { name: 'Go back' }));

    await waitFor(() => expect(locationOf(router)).toBe('/'));
  });

  it('shows a form without a URL disabled, saying why', async () => {
    signIn({
      isReseller: true,
      orderUrls: { newCustomer: NEW_CUSTOMER, accountChanges: null },
    });
    await renderApp('/orderServices');
    await screen.findByRole('heading', { level: 2, name: 'Order Services' });

    const changes = card('Account Changes');
    expect(within(changes).queryByRole('link', { name: /order form/ })).not.toBeInTheDocument();
    expect(within(changes).getByRole('button', { name: 'Open order form' })).toBeDisabled();
    expect(changes).toHaveTextContent('This order form has not been set up for your account yet.');
    expect(within(changes).getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      '/support',
    );
    expect(
      within(card('New Customer')).getByRole('link', { name: /New Customer/ }),
    ).toHaveAttribute('href', NEW_CUSTOMER);
  });

  it('sends a user who is not a reseller to the dashboard', async () => {
    signIn({
      isReseller: false,
      orderUrls: { newCustomer: NEW_CUSTOMER, accountChanges: ACCOUNT_CHANGES },
    });
    serveDashboard();
    const { router } = await renderApp('/orderServices');

    await waitFor(() => expect(locationOf(router)).toBe('/'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByText('New Customer')).not.toBeInTheDocument();
  });
});
