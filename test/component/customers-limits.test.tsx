import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { limitMessages, type LimitUse } from '../../src/api/contract/limits';
import { acmeDetails, serveLiveCustomer, signInReseller } from './support/customers-fixtures';
import { api, fail, http, ok, server } from './support/msw';
import { renderApp } from './support/render';
import { optionsOf, pick } from './support/users-fixtures';

const FRANKFURT = 4;
const VIRGINIA = 7;
const REGIONS = [
  { id: FRANKFURT, countryRegion: 'Germany - Frankfurt' },
  { id: VIRGINIA, countryRegion: 'United States - Virginia' },
];

const LIMITS: LimitUse[] = [
  { resource: 'vms', regionId: FRANKFURT, max: 10, used: 3 },
  { resource: 'ramGb', regionId: null, max: 64, used: 40 },
];

function serveRegions() {
  const asked: string[] = [];
  server.use(
    http.get(api('virtualMachines/listCombinedRegions'), () => {
      asked.push('regions');
      return ok(REGIONS);
    }),
  );
  return asked;
}

async function openPage(limits: LimitUse[] = LIMITS, uses?: Record<string, number>) {
  signInReseller();
  const regions = serveRegions();
  const served = serveLiveCustomer(acmeDetails({ limits }), uses);
  const view = await renderApp('/customers/42');
  await screen.findByRole('heading', { level: 2, name: 'Acme Corporation' });
  return { ...view, served, regions };
}

const table = () => screen.getByRole('table', { name: 'Limits' });
/** Each limit as its row reads: resource, region, max, used. */
const tableRows = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

const form = () => screen.getByRole('form', { name: 'Edit limits' });
const row = (n: number) => within(form()).getByRole('group', { name: `Limit ${n}` });
const rowCount = () => within(form()).queryAllByRole('group').length;
const resource = (n: number) => within(row(n)).getByRole('combobox', { name: 'Resource' });
const region = (n: number) => within(row(n)).getByRole('combobox', { name: 'Region' });
const max = (n: number) => within(row(n)).getByRole('textbox', { name: 'Max' });
/** A row's values as the form shows them. */
const rowValues = (n: number) => [
  (resource(n) as HTMLInputElement).value,
  (region(n) as HTMLInputElement).value,
  (max(n) as HTMLInputElement).value,
];
const save = () => within(form()).getByRole('button', { name: 'Save limits' });

async function edit(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Edit limits' }));
  return form();
}

async function setMax(user: UserEvent, n: number, value: string) {
  await user.clear(max(n));
  if (value) await user.type(max(n), value);
}

async function addRow(user: UserEvent, what: string, where: string, most: string) {
  await user.click(within(form()).getByRole('button', { name: 'Add limit' }));
  const n = rowCount();
  if (what) await pick(user, resource(n), what);
  if (where) await pick(user, region(n), where);
  await setMax(user, n, most);
}

describe('a customer’s limits', { timeout: 20_000 }, () => {
  it('shows each limit with its region (All regions for none), its max and what is used', async () => {
    await openPage();
    await screen.findByText('Germany - Frankfurt');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Resource', 'Region', 'Max', 'Used']);
    expect(tableRows()).toEqual([
      ['VMs', 'Germany - Frankfurt', '10', '3'],
      ['RAM (GB)', 'All regions', '64', '40'],
    ]);
  });

  it('says so when there are none, without asking for the regions', async () => {
    const { regions } = await openPage([]);
    expect(
      within(table()).getByText(
        "No limits: the company is bound only by your own limits and the operator's quotas",
      ),
    ).toBeInTheDocument();
    expect(regions).toEqual([]);
  });

  it('edits the set: offers readable resources and the regions, then PUTs it, toasts and shows it', async () => {
    const { user, served } = await openPage(LIMITS, { 'vcpus/7': 6 });
    await edit(user);
    expect(rowValues(1)).toEqual(['VMs', 'Germany - Frankfurt', '10']);
    expect(rowValues(2)).toEqual(['RAM (GB)', 'All regions', '64']);

    await user.click(within(form()).getByRole('button', { name: 'Add limit' }));
    // The new row starts on all regions, its resource to choose, and takes the focus.
    expect(rowValues(3)).toEqual(['', 'All regions', '']);
    await waitFor(() => expect(resource(3)).toHaveFocus());
    await user.click(resource(3));
    expect((await optionsOf(resource(3))).map((option) => option.textContent)).toEqual([
      'VMs',
      'vCPUs',
      'RAM (GB)',
      'Public IPs',
      'Networks',
      'Snapshots',
    ]);
    await user.keyboard('{Escape}');
    await user.click(region(3));
    expect((await optionsOf(region(3))).map((option) => option.textContent)).toEqual([
      'All regions',
      'Germany - Frankfurt',
      'United States - Virginia',
    ]);
    await user.keyboard('{Escape}');
    await pick(user, resource(3), 'vCPUs');
    await pick(user, region(3), 'United States - Virginia');
    await setMax(user, 3, '32');
    await setMax(user, 1, '12');
    await user.click(within(row(2)).getByRole('button', { name: 'Remove limit 2' }));
    expect(rowCount()).toBe(2);
    expect(rowValues(2)).toEqual(['vCPUs', 'United States - Virginia', '32']);
    await user.click(save());

    expect(await screen.findByText(limitMessages.saved)).toBeInTheDocument();
    expect(served.limitBodies).toEqual([
      {
        limits: [
          { resource: 'vms', regionId: FRANKFURT, max: 12 },
          { resource: 'vcpus', regionId: VIRGINIA, max: 32 },
        ],
      },
    ]);
    // The page read again, the form closed.
    await waitFor(() =>
      expect(tableRows()).toEqual([
        ['VMs', 'Germany - Frankfurt', '12', '0'],
        ['vCPUs', 'United States - Virginia', '32', '6'],
      ]),
    );
    expect(served.calls).toEqual(['details', 'limits 42', 'details']);
    expect(screen.queryByRole('form', { name: 'Edit limits' })).not.toBeInTheDocument();
  });

  it('says what is missing or wrong at each row, and sends nothing until it is right', async () => {
    const { user, served } = await openPage();
    await edit(user);
    await addRow(user, '', '', '');
    await addRow(user, 'VMs', 'Germany - Frankfurt', '5');
    await setMax(user, 1, '1000001');
    await user.click(save());

    expect(await within(row(3)).findByText('Choose a resource')).toBeInTheDocument();
    expect(within(row(3)).getByText(limitMessages.maxRange)).toBeInTheDocument();
    expect(within(row(1)).getByText(limitMessages.maxRange)).toBeInTheDocument();
    // The same resource twice in one region: said on the second row as a whole.
    expect(within(row(4)).getByRole('alert')).toHaveTextContent(limitMessages.duplicate);
    expect(row(2).querySelector('.mantine-InputWrapper-error')).toBeNull();
    expect(within(row(2)).queryByRole('alert')).toBeNull();
    expect(served.limitBodies).toEqual([]);

    // Each message goes as its row is put right.
    await pick(user, resource(3), 'Snapshots');
    await waitFor(() =>
      expect(within(row(3)).queryByText('Choose a resource')).not.toBeInTheDocument(),
    );
    await pick(user, region(4), 'United States - Virginia');
    await waitFor(() => expect(within(row(4)).queryByRole('alert')).not.toBeInTheDocument());
    await setMax(user, 1, '20');
    await setMax(user, 3, '0');
    await user.click(save());
    expect(await screen.findByText(limitMessages.saved)).toBeInTheDocument();
    expect(served.limitBodies).toEqual([
      {
        limits: [
          { resource: 'vms', regionId: FRANKFURT, max: 20 },
          { resource: 'ramGb', regionId: null, max: 64 },
          { resource: 'snapshots', regionId: null, max: 0 },
          { resource: 'vms', regionId: VIRGINIA, max: 5 },
        ],
      },
    ]);
  });

  it('shows a 400’s errors at their rows and keeps every row as typed', async () => {
    const { user, served } = await openPage();
    const above = limitMessages.aboveResellerLimit('vcpus', 16, false);
    server.use(
      http.put(api('reseller/companies/limits/:id'), () =>
        fail(400, `limits.2.max: ${above}`, [
          { field: 'limits.0.regionId', message: limitMessages.regionNotFound },
          { field: 'limits.1', message: limitMessages.duplicate },
          { field: 'limits.2.max', message: above },
        ]),
      ),
    );
    await edit(user);
    await addRow(user, 'vCPUs', '', '20');
    await user.click(save());

    const alert = await within(form()).findByText('Error saving limits');
    expect(alert.closest('[role="alert"]')).toHaveTextContent(
      'Correct the limits marked above, then save again.',
    );
    expect(within(row(1)).getByText(limitMessages.regionNotFound)).toBeInTheDocument();
    expect(within(row(2)).getByRole('alert')).toHaveTextContent(limitMessages.duplicate);
    expect(within(row(3)).getByText(above)).toBeInTheDocument();
    expect(within(row(1)).queryByText(above)).not.toBeInTheDocument();
    // Nothing typed is lost.
    expect(rowValues(1)).toEqual(['VMs', 'Germany - Frankfurt', '10']);
    expect(rowValues(2)).toEqual(['RAM (GB)', 'All regions', '64']);
    expect(rowValues(3)).toEqual(['vCPUs', 'All regions', '20']);
    expect(served.customer.limits).toHaveLength(2);

    // An edit clears its field's message, not the other rows'; a removed row takes its message
    // with it and the others' move with their rows.
    await setMax(user, 3, '16');
    await waitFor(() => expect(within(row(3)).queryByText(above)).not.toBeInTheDocument());
    expect(within(row(1)).getByText(limitMessages.regionNotFound)).toBeInTheDocument();
    expect(within(row(2)).getByRole('alert')).toHaveTextContent(limitMessages.duplicate);
    await user.click(within(row(1)).getByRole('button', { name: 'Remove limit 1' }));
    expect(rowValues(1)).toEqual(['RAM (GB)', 'All regions', '64']);
    expect(within(row(1)).getByRole('alert')).toHaveTextContent(limitMessages.duplicate);
    expect(within(form()).queryByText(limitMessages.regionNotFound)).not.toBeInTheDocument();
    // A change to the row clears its message as a whole.
    await setMax(user, 1, '65');
    await waitFor(() => expect(within(row(1)).queryByRole('alert')).not.toBeInTheDocument());
  });

  it('keeps the rows and says what failed when the failure names no row', async () => {
    const { user } = await openPage();
    server.use(
      http.put(api('reseller/companies/limits/:id'), () => fail(500, 'Database unavailable')),
    );
    await edit(user);
    await setMax(user, 1, '11');
    await user.click(save());
    const lead = await within(form()).findByText('Error saving limits');
    expect(lead.closest('[role="alert"]')).toHaveTextContent('Database unavailable');
    expect(rowValues(1)).toEqual(['VMs', 'Germany - Frankfurt', '11']);
    expect(save()).toBeEnabled();
  });

  it('removes every limit with an empty set', async () => {
    const { user, served } = await openPage();
    await edit(user);
    await user.click(within(row(1)).getByRole('button', { name: 'Remove limit 1' }));
    await user.click(within(row(1)).getByRole('button', { name: 'Remove limit 1' }));
    expect(rowCount()).toBe(0);
    expect(
      within(form()).getByText(
        "No limits: saved like this, the company is bound only by your own limits and the operator's quotas.",
      ),
    ).toBeInTheDocument();
    await user.click(save());
    expect(await screen.findByText(limitMessages.saved)).toBeInTheDocument();
    expect(served.limitBodies).toEqual([{ limits: [] }]);
    expect(
      await within(table()).findByText(
        "No limits: the company is bound only by your own limits and the operator's quotas",
      ),
    ).toBeInTheDocument();
  });

  it('puts everything back on Cancel', async () => {
    const { user, served } = await openPage();
    await edit(user);
    await setMax(user, 1, '99');
    await user.click(within(form()).getByRole('button', { name: 'Cancel' }));
    expect(tableRows()).toEqual([
      ['VMs', 'Germany - Frankfurt', '10', '3'],
      ['RAM (GB)', 'All regions', '64', '40'],
    ]);
    await edit(user);
    expect(rowValues(1)).toEqual(['VMs', 'Germany - Frankfurt', '10']);
    expect(served.limitBodies).toEqual([]);
  });
});
