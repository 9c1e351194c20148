import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { serveDashboard, USAGE } from './support/dashboard-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aTeam, rowsOf, serveTeams, signIn } from './support/teams-fixtures';
import { typeText } from './support/typing';

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const usageTable = () => screen.getByRole('table');
const tab = (name: string) => screen.getByRole('tab', { name });

// Whole screens through the real router and query client: slow on a busy machine.
describe('Dashboard', { timeout: 15_000 }, () => {
  describe('VM Usage tab', () => {
    it('opens by default with usage per size: configuration text, counts, dashes for zero', async () => {
      signIn();
      serveDashboard();
      await renderApp('/');

      expect(screen.getByRole('heading', { level: 2, name: 'Dashboard' })).toBeInTheDocument();
      expect(tab('VM Usage')).toHaveAttribute('aria-selected', 'true');
      expect(tab('Teams')).toHaveAttribute('aria-selected', 'false');
      await screen.findByText('Micro');
      expect(
        within(usageTable())
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual(['VM Size', 'Configuration', 'Current Month', 'Previous Month', 'Year To Date']);
      expect(rowsOf(usageTable()).map(cellsOf)).toEqual([
        ['Micro', 'CPU: 2 Cores - RAM: 4 GB - Disk: 80 GB', '3', '2', '5'],
        ['Extra Small', 'CPU: 4 Cores - RAM: 8 GB - Disk: 120 GB', '-', '-', '-'],
        ['Small', 'CPU: 6 Cores - RAM: 10 GB - Disk: 180 GB', '1', '-', '1'],
        ['Medium', 'CPU: 8 Cores - RAM: 12 GB - Disk: 240 GB', '-', '4', '4'],
        ['Large', 'CPU: 12 Cores - RAM: 48 GB - Disk: 300 GB', '1,250', '-', '1,250'],
        ['Extra Large', 'CPU: 16 Cores - RAM: 64 GB - Disk: 400 GB', '-', '-', '-'],
      ]);
      expect(screen.getByPlaceholderText('Search VM sizes...')).toBeInTheDocument();
    });

    it('searches the size names, case-insensitively, keeping the search in the URL', async () => {
      signIn();
      serveDashboard();
      const { user, router } = await renderApp('/');
      await screen.findByText('Micro');

      await typeText(user, screen.getByPlaceholderText('Search VM sizes...'), 'SMALL');

      await waitFor(() => expect(locationOf(router)).toBe('/?search=SMALL'));
      await waitFor(() => expect(rowsOf(usageTable())).toHaveLength(2));
      expect(rowsOf(usageTable()).map((row) => cellsOf(row)[0])).toEqual(['Extra Small', 'Small']);
    });

    it('opens a link with a search already filtered', async () => {
      signIn();
      serveDashboard();
      await renderApp('/?search=large');
      await screen.findByText('Extra Large');
      expect(rowsOf(usageTable()).map((row) => cellsOf(row)[0])).toEqual(['Large', 'Extra Large']);
      expect(screen.getByPlaceholderText('Search VM sizes...')).toHaveValue('large');
    });

    it('says "No VM usage data available" when no size matches the search', async () => {
      signIn();
      serveDashboard();
      await renderApp('/?search=huge');
      expect(await screen.findByText('No VM usage data available')).toBeInTheDocument();
    });

    it('says "No VM usage data available" when there are no sizes', async () => {
      signIn();
      serveDashboard({ configurations: [] });
      await renderApp('/');
      expect(await screen.findByText('No VM usage data available')).toBeInTheDocument();
    });

    it('reloads the figures with Refresh', async () => {
      signIn();
      const calls = serveDashboard();
      const { user } = await renderApp('/');
      await screen.findByText('Micro');
      expect(calls.usage).toBe(1);

      const reloaded = serveDashboard({
        usage: { ...USAGE, currentMonth: { ...USAGE.currentMonth, large: 7 } },
      });
      // Refresh stays disabled for a moment after a load (the spinner lingers).
      const refresh = screen.getByRole('button', { name: 'Refresh' });
      await waitFor(() => expect(refresh).toBeEnabled());
      await user.click(refresh);

      expect(await screen.findByText('7')).toBeInTheDocument();
      // Both the figures and the sizes were asked again.
      expect(reloaded).toEqual({ usage: 1, configurations: 1, summary: 0 });
      expect(cellsOf(rowsOf(usageTable())[4]!)).toEqual([
        'Large',
        'CPU: 12 Cores - RAM: 48 GB - Disk: 300 GB',
        '7',
        '-',
        '1,250',
      ]);
    });

    it('shows a failed load with the spec lead and the server message', async () => {
      signIn();
      serveDashboard();
      server.use(
        http.get(api('virtualMachines/GetDashboardData'), () =>
          fail(503, 'Usage is being recalculated'),
        ),
      );
      await renderApp('/');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Error fetching dashboard data');
      expect(alert).toHaveTextContent('Usage is being recalculated');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    });

    it('names the configurations when the sizes fail to load', async () => {
      signIn();
      serveDashboard();
      server.use(
        http.get(api('virtualMachines/listConfigurations'), () => fail(500, 'Catalogue down')),
      );
      await renderApp('/');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Error fetching configurations');
      expect(alert).toHaveTextContent('Catalogue down');
    });
  });

  describe('Teams tab', () => {
    it('lists the teams, with the tab in the URL, without loading usage', async () => {
      signIn();
      const calls = serveDashboard();
      serveTeams({ teams: [aTeam(1, { name: 'Ops' }), aTeam(2, { name: 'Web' })] });
      const { user, router } = await renderApp('/');
      await screen.findByText('Micro');

      await user.click(tab('Teams'));

      await waitFor(() => expect(locationOf(router)).toBe('/?tab=teams'));
      expect(tab('Teams')).toHaveAttribute('aria-selected', 'true');
      expect(await screen.findByText('Ops')).toBeInTheDocument();
      expect(screen.getByText('Unassigned')).toBeInTheDocument();
      expect(screen.getByPlaceholderText('Search teams...')).toBeInTheDocument();
      expect(screen.queryByText('Micro')).not.toBeInTheDocument();
      expect(calls.usage).toBe(1);

      await user.click(tab('VM Usage'));
      await waitFor(() => expect(locationOf(router)).toBe('/'));
      expect(await screen.findByText('Micro')).toBeInTheDocument();
    });

    it('opens from a link with its search, and opens a team from its row', async () => {
      signIn();
      const calls = serveDashboard();
      // The team page is not what this is about (registered first: teams/list must win).
      server.use(
        http.get(api('teams/:id'), () => fail(404, 'Team not found')),
        http.get(api('virtualMachines/list'), () => fail(404, 'Team not found')),
      );
      const teams = serveTeams({ teams: [aTeam(1, { name: 'Ops' }), aTeam(2, { name: 'Web' })] });
      const { user, router } = await renderApp('/?tab=teams&search=web');

      expect(await screen.findByText('Web')).toBeInTheDocument();
      expect(screen.queryByText('Ops')).not.toBeInTheDocument();
      expect(teams.last()).toEqual({ page: '1', rowsPerPage: '10', search: 'web' });
      // The figures above the tabs load whichever tab is open.
      expect(calls).toEqual({ usage: 0, configurations: 0, summary: 1 });

      await user.click(screen.getByText('Web'));
      await waitFor(() => expect(locationOf(router)).toBe('/team?id=2'));
    });

    it('falls back to VM Usage for an unknown tab in the URL', async () => {
      signIn();
      serveDashboard();
      await renderApp('/?tab=billing');
      expect(await screen.findByText('Micro')).toBeInTheDocument();
      expect(tab('VM Usage')).toHaveAttribute('aria-selected', 'true');
    });
  });

  describe('Order Services', () => {
    it('offers resellers the Order Services button, which opens the page', async () => {
      signIn({
        isReseller: true,
        orderUrls: { newCustomer: 'https://orders.example/new', accountChanges: null },
      });
      serveDashboard();
      const { user, router } = await renderApp('/');
      await screen.findByText('Micro');

      await user.click(screen.getByRole('button', { name: 'Order Services' }));

      await waitFor(() => expect(locationOf(router)).toBe('/orderServices'));
      expect(
        await screen.findByRole('heading', { level: 2, name: 'Order Services' }),
      ).toBeInTheDocument();
    });

    it('offers nothing of the kind to a customer', async () => {
      signIn({ isReseller: false });
      serveDashboard();
      await renderApp('/');
      await screen.findByText('Micro');
      expect(screen.queryByRole('button', { name: 'Order Services' })).not.toBeInTheDocument();
    });
  });
});
