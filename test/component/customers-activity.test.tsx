import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anEvent } from './support/activity-fixtures';
import { serveCustomer, signInReseller } from './support/customers-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { serveCustomerActivity } from './support/usage-fixtures';

const historyTable = () => screen.getByRole('table', { name: 'Activity' });
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

/** 14 events, newest first: the reseller's suspension of the customer, then its Admin's VMs. */
const history = [
  anEvent(14, {
    actor: { type: 'user', id: 90, name: 'Rita Reseller' },
    subject: { type: 'company', id: 42, name: 'Acme Corporation' },
    action: 'company.suspend',
    outcome: 'succeeded',
    teamId: null,
    operationId: null,
  }),
  ...Array.from({ length: 13 }, (_, i) =>
    anEvent(13 - i, { actor: { type: 'user', id: 1, name: 'Grace Hopper' } }),
  ),
];

describe('a customer’s activity', { timeout: 15_000 }, () => {
  it('pages through the customer’s events, newest first, with the page in the URL', async () => {
    signInReseller();
    serveCustomer();
    const activity = serveCustomerActivity(history);
    const { user, router } = await renderApp('/customers/42');
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(10));
    expect(activity.last()).toEqual({ page: '1', rowsPerPage: '10' });
    expect(rowsOf(historyTable())[0]).toHaveTextContent(
      /Acme Corporation\s*Company\s*Rita Reseller\s*Suspend company\s*Succeeded/,
    );
    // Paging only: the Dashboard's filters are not on this page.
    expect(screen.queryByRole('search', { name: 'Filter the activity' })).not.toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(4));
    expect(activity.last()).toEqual({ page: '2', rowsPerPage: '10' });
    expect(locationOf(router)).toBe('/customers/42?page=2');

    await user.click(screen.getByRole('button', { name: /Previous/ }));
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(10));
    expect(locationOf(router)).toBe('/customers/42');
  });

  it('opens the page of a link', async () => {
    signInReseller();
    serveCustomer();
    const activity = serveCustomerActivity(history);
    await renderApp('/customers/42?page=2');
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(4));
    expect(activity.queries).toEqual([{ page: '2', rowsPerPage: '10' }]);
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
  });

  it('says so when the activity could not be loaded, keeping the rest of the page', async () => {
    signInReseller();
    serveCustomer();
    server.use(
      http.get(api('reseller/companies/activity/:id'), () => fail(500, 'Database unavailable')),
    );
    await renderApp('/customers/42');
    expect(await screen.findByText('The activity could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Admins' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Usage' })).toBeInTheDocument();
  });
});
