import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anEvent, serveActivity } from './support/activity-fixtures';
import { serveDashboard } from './support/dashboard-fixtures';
import { api, fail, http, server } from './support/msw';
import { aNetwork, serveNetwork } from './support/networks-fixtures';
import { locationOf, renderApp } from './support/render';
import { serveTeams, signIn } from './support/teams-fixtures';
import { pick } from './support/users-fixtures';
import { serveVm } from './support/vms-fixtures';
import { typeText } from './support/typing';

const historyTable = () => screen.getByRole('table', { name: 'Activity' });
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

const history = [
  anEvent(9, {
    action: 'vm.start',
    outcome: 'failed',
    actor: { type: 'user', id: 3, name: 'Otto Operator' },
    detail: { reason: 'No host has room' },
  }),
  anEvent(8, {
    action: 'vm.status',
    outcome: 'observed',
    actor: { type: 'system', id: null, name: 'System' },
    detail: { from: 'Starting', to: 'Stopped' },
  }),
  ...Array.from({ length: 6 }, (_, i) => anEvent(7 - i)),
];

describe('the Activity card', { timeout: 15_000 }, () => {
  it("shows a VM's history newest first: who, what, how it ended and why it failed", async () => {
    signIn();
    serveVm();
    const activity = serveActivity(history);
    await renderApp('/virtualMachineDetails/12');
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(5));
    expect(activity.last()).toMatchObject({ subjectType: 'vm', subjectId: '12', page: '1' });
    const [failed, status] = rowsOf(historyTable());
    expect(failed).toHaveTextContent(/Otto Operator\s*Start\s*Failed\s*No host has room/);
    expect(status).toHaveTextContent(/System\s*Status: Starting → Stopped\s*Observed/);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('pages with Next', async () => {
    signIn();
    serveVm();
    const activity = serveActivity(history);
    const { user } = await renderApp('/virtualMachineDetails/12');
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(rowsOf(historyTable())).toHaveLength(3));
    expect(activity.last()).toMatchObject({ page: '2' });
  });

  it("asks for a network's history by its id", async () => {
    signIn();
    serveNetwork(aNetwork({ id: 5 }));
    const activity = serveActivity([
      anEvent(1, {
        subject: { type: 'network', id: 5, name: 'backend' },
        action: 'network.create',
        outcome: 'succeeded',
      }),
    ]);
    await renderApp('/networks/5');
    await screen.findByText('Create network');
    expect(activity.last()).toMatchObject({ networkId: '5' });
    expect(rowsOf(historyTable())[0]).toHaveTextContent(/Create network\s*Succeeded/);
  });

  it('says so when the history could not be loaded, keeping the rest of the page', async () => {
    signIn();
    serveVm();
    server.use(http.get(api('activity/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/virtualMachineDetails/12');
    expect(await screen.findByText('The activity could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'web-01' })).toBeInTheDocument();
  });
});

describe("the Dashboard's Activity tab", { timeout: 15_000 }, () => {
  it("shows an Admin the company's history, filtered from the URL and the filters", async () => {
    signIn();
    serveTeams();
    // The figures above the tabs.
    serveDashboard();
    const activity = serveActivity(history);
    const { user, router } = await renderApp('/?tab=activity&outcome=failed');
    await screen.findByText('No host has room');
    expect(activity.last()).toMatchObject({ outcome: 'failed', page: '1', rowsPerPage: '20' });
    expect(rowsOf(historyTable())[0]).toHaveTextContent(/web-1\s*VM\s*Otto Operator/);

    await pick(user, screen.getByRole('combobox', { name: 'Resource type' }), 'Networks');
    await waitFor(() =>
      expect(activity.last()).toMatchObject({ subjectType: 'network', outcome: 'failed' }),
    );
    const url = new URL(locationOf(router), 'http://console.test');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      tab: 'activity',
      subjectType: 'network',
      outcome: 'failed',
    });
  });

  it('searches and bounds the dates from a filter row of its own, above the table', async () => {
    signIn();
    serveTeams();
    serveDashboard();
    const activity = serveActivity(history);
    const { user } = await renderApp('/?tab=activity');
    await screen.findByText('No host has room', {}, { timeout: 5_000 });

    const filters = screen.getByRole('search', { name: 'Filter the activity' });
    expect(
      [...filters.querySelectorAll('input:not([type=hidden])')].map((control) =>
        control.getAttribute('aria-label'),
      ),
    ).toEqual(['Search resources and people', 'Resource type', 'Actor', 'Outcome', 'From', 'To']);
    // The table's toolbar keeps its title and Refresh, and no second search box.
    expect(screen.getAllByPlaceholderText('Search resources and people')).toHaveLength(1);

    await typeText(user, within(filters).getByRole('searchbox'), 'web');
    await waitFor(() => expect(activity.last()).toMatchObject({ search: 'web', page: '1' }));
    fireEvent.change(within(filters).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(filters).getByLabelText('To'), { target: { value: '2026-11-24' } });
    await waitFor(() =>
      expect(activity.last()).toMatchObject({
        search: 'web',
        from: '2026-11-01',
        to: '2026-11-24',
      }),
    );
  });

  it('is not offered to someone who is not an Admin', async () => {
    signIn({ isAdmin: false });
    serveTeams();
    serveDashboard();
    serveActivity();
    await renderApp('/?tab=activity');
    await screen.findByRole('tab', { name: /Teams/ });
    expect(screen.queryByRole('tab', { name: /Activity/ })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /VM Usage/, selected: true })).toBeInTheDocument();
  });
});
