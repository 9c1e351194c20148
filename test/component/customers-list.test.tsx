import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  aCustomer,
  serveCustomer,
  serveCustomers,
  signInReseller,
} from './support/customers-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { typeText } from './support/typing';

const table = () => screen.getByRole('table', { name: 'Your Customers' });
const rows = () => within(table()).getAllByRole('row').slice(1);
/** A cell's text as read out: the logo's initials are left out (the name is beside them). */
const spoken = (cell: HTMLElement) => {
  const copy = cell.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent;
};
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map(spoken);
const names = () => rows().map((row) => spoken(within(row).getAllByRole('cell')[0]!));

function open(path = '/customers', customers?: Parameters<typeof serveCustomers>[0]) {
  signInReseller();
  const list = serveCustomers(customers);
  return { list, view: renderApp(path) };
}

// Whole journeys through the real router and query client: slow on a busy machine.
describe('Customers list', { timeout: 15_000 }, () => {
  it('shows the first 10 customers by name with their figures, and New customer', async () => {
    const { list, view } = open('/customers', [
      aCustomer(3, {
        name: 'Acme Corporation',
        logoUrl: 'https://acme.example/logo.svg',
        admins: 2,
        users: 14,
        vmsRunning: 3,
        vmsTotal: 5,
        vcpus: 12,
        ramGb: 48,
        publicIps: 2,
        vmHoursThisMonth: 1234.5,
      }),
      ...Array.from({ length: 24 }, (_, i) => aCustomer(i + 10)),
    ]);
    await view;
    expect(screen.getByRole('heading', { level: 2, name: 'Customers' })).toBeInTheDocument();
    expect(await screen.findByText('Acme Corporation')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Name',
      'Admins',
      'Users',
      'VMs',
      'vCPUs',
      'RAM (GB)',
      'Public IPs',
      'VM-hours this month',
      'Created',
    ]);
    expect(rows()).toHaveLength(10);
    const created = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date('2026-03-03T10:00:00.000Z'),
    );
    expect(cellsOf(rows()[0]!)).toEqual([
      // The logo is beside the name, not read out again.
      'Acme Corporation',
      '2',
      '14',
      '3 / 5',
      '12',
      '48',
      '2',
      '1,234.5',
      created,
    ]);
    // A figure, lined up with the others: right-aligned, and not a column to sort by (the API
    // does not sort by it).
    const hours = within(table()).getByRole('columnheader', { name: 'VM-hours this month' });
    expect(hours).toHaveStyle({ textAlign: 'right' });
    expect(hours).not.toHaveAttribute('aria-sort');
    expect(within(hours).queryByRole('button')).toBeNull();
    expect(within(rows()[1]!).getAllByRole('cell')[7]).toHaveTextContent('102.5');
    expect(rows()[0]!.querySelector('img')).toHaveAttribute('src', 'https://acme.example/logo.svg');
    // No logo: the company's initials in its place.
    expect(rows()[1]!.querySelector('img')).toBeNull();
    expect(within(rows()[1]!).getByText('C1')).toBeInTheDocument();
    expect(list.queries).toEqual([
      { page: '1', rowsPerPage: '10', sortColumn: 'name', sortDescending: 'false' },
    ]);
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New customer' })).toBeInTheDocument();
  });

  it('sorts on the server by name, users, VMs and created, keeping the sort in the URL', async () => {
    const { list, view } = open('/customers?page=2');
    const { user, router } = await view;
    await screen.findByText('Customer 11');
    // Only these four sort: the other headers are plain text.
    for (const header of ['Admins', 'vCPUs', 'RAM (GB)', 'Public IPs'])
      expect(screen.queryByRole('button', { name: header })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Users' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?sort=users.asc'));
    expect(list.last()).toMatchObject({ sortColumn: 'users', sortDescending: 'false', page: '1' });
    await user.click(screen.getByRole('button', { name: 'Users' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?sort=users.desc'));
    expect(list.last()).toMatchObject({ sortColumn: 'users', sortDescending: 'true' });
    await waitFor(() => expect(names()[0]).toBe('Customer 25'));

    await user.click(screen.getByRole('button', { name: 'VMs' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?sort=vms.asc'));
    expect(list.last()).toMatchObject({ sortColumn: 'vms', sortDescending: 'false' });

    // The newest first, as in the VM lists.
    await user.click(screen.getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?sort=createdAt.desc'));
    expect(list.last()).toMatchObject({ sortColumn: 'createdAt', sortDescending: 'true' });
    await waitFor(() => expect(names()[0]).toBe('Customer 25'));

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?sort=name.desc'));
    expect(list.last()).toMatchObject({ sortColumn: 'name', sortDescending: 'true' });
    await waitFor(() => expect(names()[0]).toBe('Customer 25'));
  });

  it('pages with Next and Previous and searches once typing pauses, all in the URL', async () => {
    const { list, view } = open();
    const { user, router } = await view;
    await screen.findByText('Customer 01');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers?page=2'));
    expect(await screen.findByText('Customer 11')).toBeInTheDocument();
    expect(list.last()).toMatchObject({ page: '2' });
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers'));
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Customer 11');
    await typeText(user, screen.getByPlaceholderText('Search customers...'), 'customer 2');
    // Back on page 1 with the search.
    await waitFor(() => expect(locationOf(router)).toBe('/customers?search=customer+2'));
    await waitFor(() => expect(list.last()).toMatchObject({ search: 'customer 2', page: '1' }));
    await waitFor(() =>
      expect(names()).toEqual([
        'Customer 20',
        'Customer 21',
        'Customer 22',
        'Customer 23',
        'Customer 24',
        'Customer 25',
      ]),
    );
    expect(screen.queryByText(/Page \d of/)).not.toBeInTheDocument();
  });

  it('opens a deep link with its search, sort and page', async () => {
    const { list, view } = open('/customers?search=Customer&sort=vms.desc&page=2');
    await view;
    expect(await screen.findByText('Customer 15')).toBeInTheDocument();
    expect(list.queries[0]).toEqual({
      page: '2',
      rowsPerPage: '10',
      search: 'Customer',
      sortColumn: 'vms',
      sortDescending: 'true',
    });
    expect(screen.getByPlaceholderText('Search customers...')).toHaveValue('Customer');
    expect(screen.getByRole('columnheader', { name: /VMs/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it("opens a customer's page from its row, by click or Enter", async () => {
    const { view } = open();
    serveCustomer({ ...aCustomer(4), adminList: [] });
    const { user, router } = await view;
    await user.click(await screen.findByText('Customer 04'));
    await waitFor(() => expect(locationOf(router)).toBe('/customers/4'));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Customer 04' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers'));
    const row = (await screen.findByText('Customer 04')).closest('tr')!;
    row.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(locationOf(router)).toBe('/customers/4'));
  });

  it('goes to the form from New customer', async () => {
    const { view } = open();
    const { user, router } = await view;
    await user.click(screen.getByRole('button', { name: 'New customer' }));
    await waitFor(() => expect(locationOf(router)).toBe('/customers/new'));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'New customer' }),
    ).toBeInTheDocument();
  });

  it('tells a reseller with no customer yet what the list is for, with the way to add one', async () => {
    const { view } = open('/customers', []);
    const { user, router } = await view;
    expect(await screen.findByText('No customers yet')).toBeInTheDocument();
    expect(screen.queryByText('No customers found')).not.toBeInTheDocument();
    const inTable = within(table()).getByRole('button', { name: 'New customer' });
    await user.click(inTable);
    await waitFor(() => expect(locationOf(router)).toBe('/customers/new'));
  });

  it('says "No customers found" when a search matches none', async () => {
    const { view } = open('/customers?search=zzz');
    await view;
    expect(await screen.findByText('No customers found')).toBeInTheDocument();
    expect(screen.queryByText('No customers yet')).not.toBeInTheDocument();
  });

  it('shows a failed load in place of the rows', async () => {
    signInReseller();
    server.use(http.get(api('reseller/companies/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/customers');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching customers');
    expect(alert).toHaveTextContent('Database unavailable');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });
});
