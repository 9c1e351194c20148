import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../src/api/session-store';
import { acmeDetails, serveCustomer, signInReseller } from './support/customers-fixtures';
import { api, fail, http, HttpResponse, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import {
  aCompanyUsage,
  aPublicIpPeriod,
  aSnapshotPeriod,
  aVmPeriod,
  serveUsage,
} from './support/usage-fixtures';
import { optionsOf, pick } from './support/users-fixtures';

const card = () => screen.getByRole('region', { name: 'Usage' });
/** The totals' terms and values, as a `<dl>` reads. */
const totals = () =>
  Object.fromEntries(
    [...card().querySelector('dl')!.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]),
  );
/** Each row's cells' text; the thin spaces a date range is drawn with read as spaces. */
const rowsOf = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent.replace(/\s/g, ' ')),
    );

const october = aCompanyUsage(42, {
  vms: [
    // Resized on the 11th: one row per size.
    aVmPeriod(),
    aVmPeriod({
      configurationId: 3,
      size: 'Large 4 vCPU / 16 GB',
      vcpus: 4,
      ramGb: 16,
      from: '2026-10-11T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
      existedHours: 504,
      ranHours: 480.5,
    }),
    aVmPeriod({
      vmId: 13,
      vmName: 'db-01',
      vmDeleted: true,
      from: '2026-10-03T09:00:00.000Z',
      to: '2026-10-03T17:30:00.000Z',
      existedHours: 8.5,
      ranHours: 8.25,
    }),
  ],
  publicIps: [
    aPublicIpPeriod(),
    aPublicIpPeriod({
      address: '203.0.113.99',
      vmId: null,
      networkId: 5,
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
      hours: 744,
    }),
  ],
  snapshots: [
    aSnapshotPeriod(),
    // Of the VM deleted on the 3rd, with it.
    aSnapshotPeriod({
      snapshotId: 8,
      snapshotName: 'db nightly',
      vmId: 13,
      vmName: 'db-01',
      vmDeleted: true,
      sizeBytes: 2_684_354_560,
      sizeGb: 2.5,
      from: '2026-10-03T10:00:00.000Z',
      to: '2026-10-03T17:30:00.000Z',
      minutes: 450,
      hours: 7.5,
      gbHours: 18.75,
    }),
  ],
  totals: {
    vmExistedHours: 752.5,
    vmRanHours: 688.75,
    vcpuRanHours: 2338.5,
    ramGbRanHours: 8521,
    publicIpHours: 984,
    snapshotGbHours: 2418.75,
  },
});

// "Now" is in November 2026 (only the clock's date: timers stay real).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-20T12:00:00Z'));
});
// Each test's spies on the download, and no others (setup.ts's on console.error stays).
const spies: { mockRestore: () => void }[] = [];
afterEach(() => {
  vi.useRealTimers();
  spies.splice(0).forEach((spy) => spy.mockRestore());
});

function openCustomer() {
  signInReseller();
  // Created in August: its months are August to November.
  serveCustomer(acmeDetails({ createdAt: '2026-08-14T10:00:00.000Z' }));
  return serveUsage({ '2026-10': october });
}

describe('a customer’s usage', { timeout: 15_000 }, () => {
  it('shows the current month, offers the months since the customer’s creation, and keeps the chosen one in the URL', async () => {
    const usage = openCustomer();
    const { user, router } = await renderApp('/customers/42');
    expect(await within(card()).findByText('No usage in November 2026')).toBeInTheDocument();
    expect(usage.last()).toEqual({ month: '2026-11', companyId: '42', format: 'json' });

    const month = within(card()).getByRole('combobox', { name: 'Month' });
    expect(month).toHaveValue('November 2026');
    // None after the current month, none before the customer existed.
    await user.click(month);
    expect((await optionsOf(month)).map((option) => option.textContent)).toEqual([
      'November 2026',
      'October 2026',
      'September 2026',
      'August 2026',
    ]);

    await user.keyboard('{Escape}');
    await pick(user, month, 'October 2026');
    await waitFor(() => expect(locationOf(router)).toBe('/customers/42?month=2026-10'));
    await within(card()).findByText('VM hours existed');
    expect(usage.last()).toEqual({ month: '2026-10', companyId: '42', format: 'json' });
    expect(totals()).toEqual({
      'VM hours existed': '752.50',
      'VM hours ran': '688.75',
      'vCPU-hours': '2,338.50',
      'GB-RAM-hours': '8,521.00',
      'Public-IP hours': '984.00',
      'Snapshot GB-hours': '2,418.75',
    });
    expect(rowsOf('VM usage')).toEqual([
      [
        'web-01',
        'Standard 2 vCPU / 4 GB',
        'Frankfurt',
        'Oct 1, 00:00 – Oct 11, 00:00',
        '240.00',
        '200.00',
      ],
      [
        'web-01',
        'Large 4 vCPU / 16 GB',
        'Frankfurt',
        'Oct 11, 00:00 – Nov 1, 00:00',
        '504.00',
        '480.50',
      ],
      [
        'db-01Deleted',
        'Standard 2 vCPU / 4 GB',
        'Frankfurt',
        'Oct 3, 09:00 – 17:30',
        '8.50',
        '8.25',
      ],
    ]);
    expect(rowsOf('Public IP usage')).toEqual([
      ['203.0.113.10', 'Frankfurt', 'web-01', 'Oct 1, 00:00 – Oct 11, 00:00', '240.00'],
      [
        '203.0.113.99',
        'Frankfurt',
        'Network 5 (outbound)',
        'Oct 1, 00:00 – Nov 1, 00:00',
        '744.00',
      ],
    ]);

    expect(rowsOf('Snapshot usage')).toEqual([
      [
        'before-upgrade',
        'web-01',
        'Frankfurt',
        '10.00',
        'Oct 1, 00:00 – Oct 11, 00:00',
        '240.00',
        '2,400.00',
      ],
      ['db nightly', 'db-01Deleted', 'Frankfurt', '2.50', 'Oct 3, 10:00 – 17:30', '7.50', '18.75'],
    ]);

    // Back to the current month: the URL drops it again.
    await pick(user, month, 'November 2026');
    await waitFor(() => expect(locationOf(router)).toBe('/customers/42'));
    expect(await within(card()).findByText('No usage in November 2026')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'VM usage' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Snapshot usage' })).not.toBeInTheDocument();
  });

  it('opens the month of a link, and the current one for a month still to come', async () => {
    const usage = openCustomer();
    const { router } = await renderApp('/customers/42?month=2026-10');
    await within(card()).findByText('VM hours existed');
    expect(within(card()).getByRole('combobox', { name: 'Month' })).toHaveValue('October 2026');
    expect(usage.queries.map((query) => query.month)).toEqual(['2026-10']);

    await act(() =>
      router.navigate({
        to: '/customers/$customerId',
        params: { customerId: 42 },
        search: { month: '2027-01' },
      }),
    );
    expect(await within(card()).findByText('No usage in November 2026')).toBeInTheDocument();
    expect(within(card()).getByRole('combobox', { name: 'Month' })).toHaveValue('November 2026');
    expect(usage.last()).toMatchObject({ month: '2026-11' });
  });

  it('says why the usage could not be loaded, and loads it again on Try again', async () => {
    openCustomer();
    let failing = true;
    server.use(
      http.get(api('reseller/usage'), () =>
        failing ? fail(500, 'Usage is being recounted') : undefined,
      ),
    );
    const { user } = await renderApp('/customers/42?month=2026-10');
    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching usage');
    expect(alert).toHaveTextContent('Usage is being recounted');
    // The rest of the page is there.
    expect(screen.getByRole('table', { name: 'Admins' })).toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await within(card()).findByText('VM hours existed');
    expect(within(card()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('downloads the month’s CSV with the session’s token, under a file name of its own', async () => {
    openCustomer();
    sessionStore.setToken('reseller-session-token');
    const csv = 'kind,company_id\r\nvm,42\r\n';
    const asked: { query: Record<string, string>; authorization: string | null }[] = [];
    server.use(
      http.get(api('reseller/usage'), ({ request }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams);
        if (query.format !== 'csv') return undefined;
        asked.push({ query, authorization: request.headers.get('Authorization') });
        return new HttpResponse(csv, { headers: { 'Content-Type': 'text/csv' } });
      }),
    );
    const saved: { name: string; blob: Blob }[] = [];
    let lastBlob: Blob | undefined;
    spies.push(
      vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
        lastBlob = blob as Blob;
        return 'blob:usage';
      }),
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {}),
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved.push({ name: this.download, blob: lastBlob! });
      }),
    );

    const { user } = await renderApp('/customers/42?month=2026-10');
    await within(card()).findByText('VM hours existed');
    await user.click(within(card()).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual([
      {
        query: { month: '2026-10', companyId: '42', format: 'csv' },
        authorization: 'Bearer reseller-session-token',
      },
    ]);
    expect(saved[0]!.name).toBe('usage-2026-10-acme-corporation.csv');
    expect(await saved[0]!.blob.text()).toBe(csv);
  });

  it('says why the CSV could not be downloaded, keeping the card', async () => {
    openCustomer();
    server.use(
      http.get(api('reseller/usage'), ({ request }) =>
        new URL(request.url).searchParams.get('format') === 'csv'
          ? fail(503, 'The usage export is busy')
          : undefined,
      ),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    spies.push(click);
    const { user } = await renderApp('/customers/42?month=2026-10');
    await within(card()).findByText('VM hours existed');
    await user.click(within(card()).getByRole('button', { name: 'Download CSV' }));
    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('Error downloading usage');
    expect(alert).toHaveTextContent('The usage export is busy');
    expect(click).not.toHaveBeenCalled();
    expect(within(card()).getByText('VM hours existed')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(within(card()).queryByRole('alert')).not.toBeInTheDocument();
  });
});
