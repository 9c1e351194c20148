import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  aCustomer,
  anAdmin,
  serveCustomer,
  serveCustomers,
  signInReseller,
} from './support/customers-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { serveCustomerActivity, serveUsage } from './support/usage-fixtures';
import { setViewportWidth } from './support/viewport';

/** The figures card: each term with its value, as a `<dl>` reads. */
const figures = () => {
  const list = screen.getByRole('region', { name: 'Figures' });
  return Object.fromEntries(
    [...list.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]),
  );
};
const adminsTable = () => screen.getByRole('table', { name: 'Admins' });
/** Each Admin's name (beside its initials), e-mail and status. */
const adminRows = () =>
  within(adminsTable())
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [name, ...rest] = within(row).getAllByRole('cell');
      return [within(name!).getByText(/\w{3,}/).textContent, ...rest.map((c) => c.textContent)];
    });

describe('a customer’s page', { timeout: 15_000 }, () => {
  it('shows the company’s name and logo as the heading, its figures and its Admins', async () => {
    signInReseller();
    const { requested } = serveCustomer({
      ...aCustomer(42, {
        name: 'Acme Corporation',
        logoUrl: 'https://acme.example/logo.svg',
        admins: 2,
        users: 9,
        vmsRunning: 3,
        vmsTotal: 5,
        vcpus: 10,
        ramGb: 40,
        publicIps: 1,
        createdAt: '2026-02-14T09:30:00.000Z',
      }),
      adminList: [
        anAdmin(1, { name: 'Grace Hopper', email: 'grace@acme.example' }),
        anAdmin(2, {
          name: 'new.admin@acme.example',
          email: 'new.admin@acme.example',
          activated: false,
        }),
      ],
    });
    await renderApp('/customers/42');

    const heading = await screen.findByRole('heading', { level: 2, name: 'Acme Corporation' });
    // The logo beside the heading.
    expect(heading.closest('.mantine-Group-root')!.querySelector('img')).toHaveAttribute(
      'src',
      'https://acme.example/logo.svg',
    );
    expect(requested).toEqual([42]);
    expect(figures()).toEqual({
      Admins: '2',
      Users: '9',
      'VMs running': '3 / 5',
      vCPUs: '10',
      'RAM (GB)': '40',
      'Public IPs': '1',
      Created: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
        new Date('2026-02-14T09:30:00.000Z'),
      ),
    });
    expect(
      within(adminsTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Email', 'Status']);
    expect(adminRows()).toEqual([
      ['Grace Hopper', 'grace@acme.example', 'Active'],
      ['new.admin@acme.example', 'new.admin@acme.example', 'Invited'],
    ]);
  });

  it('goes back to the list with the back arrow', async () => {
    signInReseller();
    serveCustomer();
    serveCustomers();
    const { user, router } = await renderApp('/customers/42');
    await screen.findByRole('heading', { level: 2, name: 'Acme Corporation' });
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers'));
  });

  it.each([
    ['an id that is not one of the reseller’s customers', '/customers/7'],
    ['an id that is no number', '/customers/acme'],
  ])('shows "Page not found" inside the layout for %s', async (_, path) => {
    setViewportWidth(1280);
    signInReseller();
    serveCustomer();
    await renderApp(path);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Page not found' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText(path)).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', {
        name: 'Customers',
      }),
    ).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('table', { name: 'Admins' })).not.toBeInTheDocument();
  });

  it('shows another failure in place, under the page’s title', async () => {
    signInReseller();
    serveUsage();
    serveCustomerActivity();
    server.use(
      http.get(api('reseller/companies/details/:id'), () => fail(500, 'Database unavailable')),
    );
    await renderApp('/customers/42');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching customer');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(screen.getByRole('heading', { level: 2, name: 'Customer' })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).not.toBeInTheDocument();
  });
});
