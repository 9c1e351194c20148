import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VmRow } from '../../src/api/contract/vms';
import { anEvent } from './support/activity-fixtures';
import {
  EMPTY_SUMMARY,
  EMPTY_USAGE,
  serveDashboard,
  SUMMARY,
  USAGE,
} from './support/dashboard-fixtures';
import { FakeEventSource, installEventSource } from './support/fake-event-source';
import { api, fail, http, ok, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { rowsOf, serveTeams, signIn, gate, type Recorded } from './support/teams-fixtures';
import { pick } from './support/users-fixtures';
import { aVmRow } from './support/vms-fixtures';
import { setViewportWidth } from './support/viewport';

beforeEach(() => {
  installEventSource();
  setViewportWidth(1280);
});
afterEach(() => vi.unstubAllGlobals());

const overview = () => screen.getByRole('region', { name: 'Overview' });
// The Dashboard's first drawing: slow on a busy machine.
const findOverview = () => screen.findByRole('region', { name: 'Overview' }, { timeout: 5_000 });
const findFigure = (name: RegExp) => screen.findByRole('link', { name }, { timeout: 5_000 });
const figureLinks = () => within(overview()).getAllByRole('link');

/** The VM list's answers, filtered by status as the server does; records each query. */
function serveVmList(rows: VmRow[]) {
  const queries: Recorded[] = [];
  const groups: Record<string, string[]> = {
    running: ['Running'],
    stopped: ['Stopped', 'Shutoff'],
    error: ['Error'],
  };
  server.use(
    http.get(api('virtualMachines/list'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(Object.fromEntries(params));
      const status = params.get('status');
      const found = status ? rows.filter((row) => groups[status]?.includes(row.status)) : rows;
      return ok({ data: found, totalPages: 1 });
    }),
  );
  return { last: () => queries.at(-1) };
}

describe('Dashboard figures', { timeout: 30_000 }, () => {
  it('shows what runs, stops and fails, the networks, the public IPs and the VM-hours, each a link into its list', async () => {
    signIn();
    serveDashboard();
    await renderApp('/');

    await findOverview();
    const expected = [
      ['9 VMs running', '/virtualMachines?status=running'],
      ['3 VMs stopped', '/virtualMachines?status=stopped'],
      ['1 VMs in error', '/virtualMachines?status=error'],
      ['4 Networks', '/networks'],
      ['16 Public IPs in use', '/virtualMachines?publicIp=true'],
      // The VM Usage tab, the Dashboard's default: its address is the Dashboard's.
      ['1,234.6 VM-hours this month', '/'],
    ];
    expect(figureLinks()).toHaveLength(expected.length);
    expected.forEach(([name, href], index) => {
      const link = within(overview()).getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expect(figureLinks()[index]).toBe(link);
    });
    // Above the spec's tabs, which are still there with the usage.
    expect(screen.getByRole('tab', { name: /VM Usage/, selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Micro')).toBeInTheDocument();
  });

  it('leads from a figure to the VM list filtered as it counted', async () => {
    signIn();
    serveDashboard();
    serveTeams();
    const vms = serveVmList([
      aVmRow(1, { name: 'web-1', status: 'Running' }),
      aVmRow(2, { name: 'db-1', status: 'Stopped' }),
      aVmRow(3, { name: 'batch-1', status: 'Shutoff' }),
    ]);
    const { user, router } = await renderApp('/');
    await findOverview();

    await user.click(within(overview()).getByRole('link', { name: '3 VMs stopped' }));

    expect(await screen.findByText('db-1', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachines?status=stopped');
    expect(screen.getByText('batch-1')).toBeInTheDocument();
    expect(screen.queryByText('web-1')).not.toBeInTheDocument();
    expect(vms.last()).toMatchObject({ status: 'stopped', page: '1' });
    // The filter shows, and lifts.
    const filter = screen.getByRole('combobox', { name: 'Status' });
    expect(filter).toHaveValue('Stopped');
    await pick(user, filter, 'All statuses');
    expect(await screen.findByText('web-1')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/virtualMachines');
    expect(vms.last()).not.toHaveProperty('status');
    expect(rowsOf(screen.getByRole('table', { name: 'Your Virtual Machines' }))).toHaveLength(3);
  });

  it('shows placeholders while the figures load', async () => {
    signIn();
    serveDashboard();
    const held = gate();
    const release = held.hold();
    server.use(
      http.get(api('dashboard/summary'), async () => {
        await held.wait();
        return ok(SUMMARY);
      }),
    );
    await renderApp('/');

    const loading = await screen.findByLabelText('Loading the figures', {}, { timeout: 5_000 });
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('region', { name: 'Overview' })).not.toBeInTheDocument();

    release();
    expect(await findFigure(/VMs running/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading the figures')).not.toBeInTheDocument();
  });

  it('says when the figures cannot be loaded, and loads them again on Retry', async () => {
    signIn();
    serveDashboard();
    server.use(http.get(api('dashboard/summary'), () => fail(503, 'Database unavailable')));
    const { user } = await renderApp('/');

    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert).toHaveTextContent('Error fetching the dashboard figures');
    expect(alert).toHaveTextContent('Database unavailable');
    // The rest of the Dashboard works on.
    expect(await screen.findByText('Micro')).toBeInTheDocument();

    serveDashboard();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await findFigure(/VMs running/)).toBeInTheDocument();
    expect(screen.queryByText('Error fetching the dashboard figures')).not.toBeInTheDocument();
  });

  it('moves when a VM changes, without a click', async () => {
    signIn();
    serveDashboard();
    await renderApp('/');
    await findFigure(/^9 VMs running/);
    FakeEventSource.latest().open();

    serveDashboard({
      summary: { ...SUMMARY, vms: { ...SUMMARY.vms, running: 10, stopped: 2 } },
    });
    FakeEventSource.latest().send(
      anEvent(1, {
        action: 'vm.status',
        outcome: 'observed',
        actor: { type: 'system', id: null, name: 'System' },
        detail: { from: 'Stopped', to: 'Running' },
      }),
    );

    expect(await findFigure(/^10 VMs running/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '2 VMs stopped' })).toBeInTheDocument();
  });

  it('moves when a network is made', async () => {
    signIn();
    serveDashboard();
    await renderApp('/');
    await findFigure(/^4 Networks/);
    FakeEventSource.latest().open();

    serveDashboard({ summary: { ...SUMMARY, networks: 5 } });
    FakeEventSource.latest().send(
      anEvent(2, {
        subject: { type: 'network', id: 9, name: 'backend' },
        action: 'network.create',
        networkId: 9,
        teamId: null,
      }),
    );

    expect(await findFigure(/^5 Networks/)).toBeInTheDocument();
  });
});

describe('Dashboard of a company with no VM', { timeout: 15_000 }, () => {
  it('offers to create the first VM instead of a table of dashes', async () => {
    signIn();
    serveDashboard({ summary: EMPTY_SUMMARY, usage: EMPTY_USAGE });
    const { user, router } = await renderApp('/');

    expect(
      await screen.findByRole(
        'heading',
        { name: 'Create your first virtual machine' },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('-')).not.toBeInTheDocument();
    // The figures say so too.
    expect(within(overview()).getByRole('link', { name: '0 VMs running' })).toBeInTheDocument();

    // What the create screen loads.
    serveTeams();
    server.use(
      http.get(api('virtualMachines/listCountries'), () => ok([])),
      http.get(api('sshKeys/list'), () => ok([])),
    );
    await user.click(screen.getByRole('link', { name: 'Create Virtual Machine' }));
    await waitFor(() => expect(locationOf(router)).toBe('/createVirtualMachine'));
  });

  it('keeps the usage table for a company whose VMs this year are all deleted', async () => {
    signIn();
    serveDashboard({ summary: EMPTY_SUMMARY, usage: USAGE });
    await renderApp('/');

    expect(await screen.findByText('Micro', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: 'Create your first virtual machine' }),
    ).not.toBeInTheDocument();
  });

  it('keeps the table when the figures fail, rather than guess', async () => {
    signIn();
    serveDashboard({ usage: EMPTY_USAGE });
    server.use(http.get(api('dashboard/summary'), () => fail(500, 'Database unavailable')));
    await renderApp('/');

    expect(await screen.findByText('Micro', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: 'Create your first virtual machine' }),
    ).not.toBeInTheDocument();
  });
});
