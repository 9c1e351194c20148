import { screen, waitFor, within } from '@testing-library/react';
import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, fail, http, server } from './support/msw';
import { serveNetworks, serveRegions } from './support/networks-fixtures';
import { locationOf, renderApp } from './support/render';
import { signIn } from './support/teams-fixtures';
import { optionsOf, pick } from './support/users-fixtures';
import { typeText } from './support/typing';

const table = () => screen.getByRole('table');
const rows = () => within(table()).getAllByRole('row').slice(1);
const firstCells = () => rows().map((row) => within(row).getAllByRole('cell')[0]!.textContent);
const regionFilter = () => screen.getByRole('combobox', { name: 'Region' });

function open(path = '/networks', rowsServed?: Parameters<typeof serveNetworks>[0]) {
  signIn();
  serveRegions();
  const networks = serveNetworks(rowsServed);
  return { networks, view: renderApp(path) };
}

describe('Networks list', { timeout: 15_000 }, () => {
  it('shows the first 10 networks by name with the four columns and Create Network', async () => {
    const { networks, view } = open();
    await view;
    expect(screen.getByRole('heading', { level: 2, name: 'Networks' })).toBeInTheDocument();
    expect(await screen.findByText('net-01')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your Networks' })).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Network Name', 'CIDR Block', 'Region', 'CONNECTED VMs', 'Actions']);
    expect(rows()).toHaveLength(10);
    expect(
      within(rows()[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['net-01', '10.1.0.0/24', 'Germany - Frankfurt', '1', 'Details']);
    expect(networks.last()).toEqual({
      page: '1',
      rowsPerPage: '10',
      sortColumn: 'name',
      sortDescending: 'false',
    });
    expect(screen.getByRole('columnheader', { name: /Network Name/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(regionFilter()).toHaveValue('All Regions');
    expect(screen.getByRole('button', { name: 'Create Network' })).toBeInTheDocument();
  });

  it('offers Create Network to Admins only', async () => {
    signIn({ isAdmin: false });
    serveRegions();
    serveNetworks();
    await renderApp('/networks');
    await screen.findByText('net-01');
    expect(screen.queryByRole('button', { name: 'Create Network' })).not.toBeInTheDocument();
  });

  it('sorts on the server by each of the four columns, keeping the sort in the URL', async () => {
    const { networks, view } = open('/networks?page=2');
    const { user, router } = await view;
    await screen.findByText('net-11');

    await user.click(screen.getByRole('button', { name: 'CONNECTED VMs' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?sort=connectedVms.asc'));
    expect(networks.last()).toMatchObject({ sortColumn: 'connectedVms', page: '1' });

    await user.click(screen.getByRole('button', { name: 'CONNECTED VMs' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?sort=connectedVms.desc'));
    expect(networks.last()).toMatchObject({ sortColumn: 'connectedVms', sortDescending: 'true' });

    await user.click(screen.getByRole('button', { name: 'Region' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?sort=region.asc'));
    expect(networks.last()).toMatchObject({ sortColumn: 'region', sortDescending: 'false' });

    await user.click(screen.getByRole('button', { name: 'CIDR Block' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?sort=cidrBlock.asc'));
    expect(networks.last()).toMatchObject({ sortColumn: 'cidrBlock' });

    await user.click(screen.getByRole('button', { name: 'Network Name' }));
    await user.click(screen.getByRole('button', { name: 'Network Name' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?sort=name.desc'));
    await waitFor(() => expect(firstCells()[0]).toBe('net-25'));
  });

  it('searches once typing pauses and pages with Next, all in the URL', async () => {
    const { networks, view } = open();
    const { user, router } = await view;
    await screen.findByText('net-01');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks?page=2'));
    expect(await screen.findByText('net-11')).toBeInTheDocument();
    expect(networks.last()).toMatchObject({ page: '2' });

    await typeText(user, screen.getByPlaceholderText('Search networks...'), 'net-2');
    await waitFor(() => expect(locationOf(router)).toBe('/networks?search=net-2'));
    await waitFor(() => expect(networks.last()).toMatchObject({ search: 'net-2', page: '1' }));
    await waitFor(() =>
      expect(firstCells()).toEqual(['net-20', 'net-21', 'net-22', 'net-23', 'net-24', 'net-25']),
    );
    expect(screen.queryByText(/Page \d of/)).not.toBeInTheDocument();
  });

  it('filters by region from All Regions and back, the region in the URL', async () => {
    const { networks, view } = open('/networks?page=2');
    const { user, router } = await view;
    await screen.findByText('net-11');
    await user.click(regionFilter());
    expect((await optionsOf(regionFilter())).map((o) => o.textContent)).toEqual([
      'All Regions',
      'Germany - Frankfurt',
      'United States - Virginia',
    ]);
    await user.keyboard('{Escape}');

    await pick(user, regionFilter(), 'United States - Virginia');
    await waitFor(() => expect(locationOf(router)).toBe('/networks?regionId=7'));
    expect(networks.last()).toMatchObject({ regionId: '7', page: '1' });
    await waitFor(() => expect(firstCells()[0]).toBe('net-02'));
    expect(rows().every((row) => row.textContent!.includes('United States - Virginia'))).toBe(true);

    await pick(user, regionFilter(), 'All Regions');
    await waitFor(() => expect(locationOf(router)).toBe('/networks'));
    expect(networks.last()).not.toHaveProperty('regionId');
    await waitFor(() => expect(firstCells()[0]).toBe('net-01'));
  });

  it('opens a deep link with its region, search, sort and page', async () => {
    const { networks, view } = open(
      '/networks?regionId=4&search=net-1&sort=connectedVms.desc&page=2',
    );
    await view;
    // The first request (the filtered rows fit one page: the list then moves to page 1 by itself).
    await waitFor(() =>
      expect(networks.queries[0]).toEqual({
        page: '2',
        rowsPerPage: '10',
        search: 'net-1',
        sortColumn: 'connectedVms',
        sortDescending: 'true',
        regionId: '4',
      }),
    );
    await waitFor(() => expect(regionFilter()).toHaveValue('Germany - Frankfurt'));
    expect(screen.getByPlaceholderText('Search networks...')).toHaveValue('net-1');
  });

  it('opens a network from its Details button and from its row', async () => {
    const { view } = open();
    // Where the clicks lead is not what this is about: those requests never answer.
    server.use(
      http.get(api('networks/:id'), async ({ params }) => {
        if (/^\d+$/.test(String(params.id))) await delay('infinite');
      }),
      http.get(api('networks/:id/vmsForNetwork'), () => delay('infinite')),
    );
    const { user, router } = await view;
    await user.click(await screen.findByRole('link', { name: 'Details of net-03' }));
    await waitFor(() => expect(locationOf(router)).toBe('/networks/3'));

    router.history.back();
    await user.click(await screen.findByText('net-04'));
    await waitFor(() => expect(locationOf(router)).toBe('/networks/4'));
  });

  it('says "No networks found" when there are none', async () => {
    const { view } = open('/networks', []);
    await view;
    expect(await screen.findByText('No networks found')).toBeInTheDocument();
  });

  it('shows a failed load in place of the table under the spec’s lead', async () => {
    signIn();
    serveRegions();
    server.use(http.get(api('networks/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/networks');
    expect(await screen.findByText('Error fetching networks')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
