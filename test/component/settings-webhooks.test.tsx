import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookMessages } from '../../src/api/contract/webhooks';
import { formatDate, formatDateTime } from '../../src/components/date-format';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { gate, optionsOf, signedInAs } from './support/users-fixtures';
import {
  openSettings,
  serveWebhooks,
  twoWebhooks,
  WEBHOOK_SECRET,
  webhookRow as rowOf,
  webhooksTable,
} from './support/webhooks-fixtures';
import { typeText } from './support/typing';

// An Admin unless a test says otherwise (a later handler wins).
beforeEach(() => void signedInAs());

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const button = (name: string | RegExp) => screen.getByRole('button', { name });

/** Found by its label rather than its role: a role query walks the whole page. */
async function openAddForm(user: UserEvent) {
  await user.click(button('Add webhook'));
  return waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-label="Add webhook"]');
    if (!form) throw new Error('the Add webhook form is not open');
    return form;
  });
}

/** Types into the event types' search and picks the option of that name. */
async function chooseEventType(user: UserEvent, form: HTMLElement, search: string, name: string) {
  const input = within(form).getByRole('combobox', { name: 'Event types' });
  await user.click(input);
  await user.type(input, search);
  const option = (await optionsOf(input)).find((o) => o.textContent?.startsWith(name));
  if (!option) throw new Error(`no event type ${name} for "${search}"`);
  await user.click(option);
}

const secretDialog = () =>
  waitFor(() => {
    const dialog = screen
      .getByText("Copy the webhook's signing secret")
      .closest<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('the secret dialog is not open');
    return dialog;
  });

// The form's tests type into a searchable multi-select: seconds each on a busy 2-core machine.
describe('Settings: webhooks (Admins)', { timeout: 15_000 }, () => {
  it('lists the webhooks: URL, event types, created, state, last event', async () => {
    const { sent } = serveWebhooks(twoWebhooks());
    await openSettings();
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(sent.lists).toBe(1);
    expect(
      within(webhooksTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['URL', 'Event types', 'Created', 'State', 'Last event', 'Actions']);

    const billing = within(rowOf('https://billing.example.com/hooks'));
    expect(billing.getByText('All events')).toBeInTheDocument();
    expect(billing.getByText(formatDate(new Date('2026-09-01T10:00:00.000Z')))).toBeInTheDocument();
    expect(billing.getByText('Active')).toBeInTheDocument();
    expect(billing.getByText('#4127')).toBeInTheDocument();

    const old = within(rowOf('https://old.example.net/in'));
    // Three types shown, all five in the title.
    const types = old.getByText(/^vm\.created, vm\.delete, vm\.upgrade/);
    expect(types).toHaveTextContent('vm.created, vm.delete, vm.upgrade and 2 more');
    expect(types).toHaveAttribute(
      'title',
      'vm.created, vm.delete, vm.upgrade, network.create, user.invite',
    );
    expect(old.getByText('Disabled')).toBeInTheDocument();
    expect(
      old.getByText(`Since ${formatDateTime(new Date('2026-11-02T06:00:00.000Z'))}`),
    ).toBeInTheDocument();
    expect(old.getByText(/failed for 24 hours: connect ECONNREFUSED/)).toBeInTheDocument();
    expect(old.getByText('None yet')).toBeInTheDocument();
    // A disabled webhook sends nothing, a test event included.
    expect(
      old.getByRole('button', { name: 'Send a test event to https://old.example.net/in' }),
    ).toBeDisabled();
    expect(billing.getByRole('button', { name: /^Send a test event to/ })).toBeEnabled();
  });

  it('says what a webhook is when there is none, with the way to add one', async () => {
    serveWebhooks([]);
    const { user } = await openSettings('/settings?tab=webhooks');
    const table = webhooksTable();
    expect(within(table).getByText('No webhooks yet')).toBeInTheDocument();
    expect(
      within(table).getByText(/sends your company's events to a URL of yours/),
    ).toBeInTheDocument();
    // One Add webhook: the empty state's.
    expect(screen.getAllByRole('button', { name: 'Add webhook' })).toHaveLength(1);
    await openAddForm(user);
  });

  it('shows a failure to load the list inside the tab', async () => {
    server.use(http.get(api('webhooks/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/settings');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching webhooks')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Settings' })).toBeInTheDocument();
  });

  it('adds a webhook for the event types chosen, and lists it', async () => {
    const { sent } = serveWebhooks(twoWebhooks());
    const { user } = await openSettings();
    const form = await openAddForm(user);
    const url = within(form).getByRole('textbox', { name: 'URL' });
    await waitFor(() => expect(url).toHaveFocus());
    await user.paste('  https://erp.example.com/launchpad  ');
    // Found by what it means as well as by its name.
    await chooseEventType(user, form, 'Delete VM', 'vm.delete');
    await chooseEventType(user, form, 'vm.crea', 'vm.created');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    const shown = await secretDialog();
    expect(sent.creates).toEqual([
      { url: 'https://erp.example.com/launchpad', events: ['vm.delete', 'vm.created'] },
    ]);
    expect(shown).toHaveTextContent('https://erp.example.com/launchpad · vm.delete, vm.created');
    // Already listed behind the dialog.
    expect(
      within(rowOf('https://erp.example.com/launchpad')).getByText('vm.delete, vm.created'),
    ).toBeInTheDocument();
  });

  it('shows the new secret once, with a warning and a copy button', async () => {
    serveWebhooks([]);
    const { user } = await openSettings();
    const form = await openAddForm(user);
    await user.click(within(form).getByRole('textbox', { name: 'URL' }));
    await user.paste('https://erp.example.com/launchpad');
    await chooseEventType(user, form, 'all', 'All events');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    const shown = await secretDialog();
    expect(within(shown).getByText('It will not be shown again')).toBeInTheDocument();
    expect(within(shown).getByLabelText('Signing secret')).toHaveTextContent(WEBHOOK_SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(WEBHOOK_SECRET);
    expect(await screen.findByText('Signing secret copied to clipboard')).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Shown once: nowhere on the page any more, the webhook itself listed.
    expect(document.body.textContent).not.toContain(WEBHOOK_SECRET);
    expect(
      within(rowOf('https://erp.example.com/launchpad')).getByText('All events'),
    ).toBeVisible();
  });

  it('makes "All events" a choice of its own: it replaces the types chosen, and a type replaces it', async () => {
    const { sent } = serveWebhooks([]);
    const { user } = await openSettings();
    const form = await openAddForm(user);
    await user.click(within(form).getByRole('textbox', { name: 'URL' }));
    await user.paste('https://a.example.com/h');
    await chooseEventType(user, form, 'network', 'network.create');
    await chooseEventType(user, form, 'all', 'All events');
    await chooseEventType(user, form, 'user.inv', 'user.invite');
    await chooseEventType(user, form, 'all', 'All events');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    await secretDialog();
    expect(sent.creates).toEqual([{ url: 'https://a.example.com/h', events: ['*'] }]);
  });

  it('checks the URL and the event types before sending anything', async () => {
    const { sent } = serveWebhooks([]);
    const { user } = await openSettings();
    const form = await openAddForm(user);
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    expect(await within(form).findByText(webhookMessages.urlRequired)).toBeVisible();
    expect(within(form).getByText(webhookMessages.eventsRequired)).toBeVisible();
    expect(within(form).getByRole('textbox', { name: 'URL' })).toHaveFocus();
    await typeText(user, within(form).getByRole('textbox', { name: 'URL' }), 'not a url');
    expect(await within(form).findByText(webhookMessages.urlInvalid)).toBeVisible();
    expect(sent.creates).toEqual([]);
  });

  it('shows the server’s 400 on its field and keeps what was typed', async () => {
    serveWebhooks([]);
    server.use(
      http.post(api('webhooks/create'), () =>
        fail(400, webhookMessages.httpsRequired, [
          { field: 'url', message: webhookMessages.httpsRequired },
        ]),
      ),
    );
    const { user } = await openSettings();
    const form = await openAddForm(user);
    const url = within(form).getByRole('textbox', { name: 'URL' });
    await user.click(url);
    await user.paste('http://plain.example.com/h');
    await chooseEventType(user, form, 'team.create', 'team.create');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    await waitFor(() =>
      expect(url).toHaveAccessibleDescription(
        expect.stringContaining(webhookMessages.httpsRequired),
      ),
    );
    expect(within(form).getByRole('alert')).toHaveTextContent('Error adding webhook');
    expect(url).toHaveValue('http://plain.example.com/h');
    expect(within(form).getByText('team.create')).toBeInTheDocument();
    expect(screen.queryByText("Copy the webhook's signing secret")).not.toBeInTheDocument();
    // Editing the field clears the server's word on it.
    await typeText(user, url, 'x');
    await waitFor(() =>
      expect(url).not.toHaveAccessibleDescription(
        expect.stringContaining(webhookMessages.httpsRequired),
      ),
    );
  });

  it('shows the 20-a-company refusal in the form, which stays filled', async () => {
    serveWebhooks(twoWebhooks());
    server.use(http.post(api('webhooks/create'), () => fail(409, webhookMessages.tooMany)));
    const { user } = await openSettings();
    const form = await openAddForm(user);
    const url = within(form).getByRole('textbox', { name: 'URL' });
    await user.click(url);
    await user.paste('https://twenty-first.example.com/h');
    await chooseEventType(user, form, 'all', 'All events');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Error adding webhook');
    expect(alert).toHaveTextContent(webhookMessages.tooMany);
    expect(url).toHaveValue('https://twenty-first.example.com/h');
    expect(within(form).getByText('All events')).toBeInTheDocument();
    expect(within(webhooksTable()).queryByText('https://twenty-first.example.com/h')).toBeNull();
  });

  it('sends a test event from a row and toasts the server’s message', async () => {
    const { sent } = serveWebhooks(twoWebhooks());
    const { user } = await openSettings();
    await user.click(button('Send a test event to https://billing.example.com/hooks'));
    expect(await screen.findByText(webhookMessages.testQueued)).toBeInTheDocument();
    expect(sent.tests).toEqual([1]);
  });

  it('toasts a refused test event with the server’s reason', async () => {
    serveWebhooks(twoWebhooks());
    server.use(http.post(api('webhooks/test/:id'), () => fail(409, webhookMessages.disabled)));
    const { user } = await openSettings();
    await user.click(button('Send a test event to https://billing.example.com/hooks'));
    expect(
      await screen.findByText(`Error sending a test event: ${webhookMessages.disabled}`),
    ).toBeInTheDocument();
  });

  it('deletes a webhook after a confirmation naming its URL', async () => {
    const { sent } = serveWebhooks(twoWebhooks());
    const { user } = await openSettings();
    await user.click(button('Delete https://billing.example.com/hooks'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    expect(dialog).toHaveTextContent('Nothing more is sent to https://billing.example.com/hooks');
    expect(sent.deletes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Webhook deleted')).toBeInTheDocument();
    expect(sent.deletes).toEqual([1]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(webhooksTable()).queryByText('https://billing.example.com/hooks')).toBeNull();
    expect(within(webhooksTable()).getByText('https://old.example.net/in')).toBeInTheDocument();
  });

  it('keeps the row and shows the reason when deleting fails', async () => {
    const held = gate();
    serveWebhooks(twoWebhooks());
    server.use(
      http.delete(api('webhooks/delete/:id'), async () => {
        await held.promise;
        return fail(404, webhookMessages.notFound);
      }),
    );
    const { user } = await openSettings();
    await user.click(button('Delete https://billing.example.com/hooks'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Deleting...')).toBeInTheDocument();
    act(() => held.release());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Error deleting webhook: ${webhookMessages.notFound}`,
    );
    expect(
      within(webhooksTable()).getByText('https://billing.example.com/hooks'),
    ).toBeInTheDocument();
  });
});

describe('Settings: webhooks for anybody but an Admin', () => {
  it('says calmly that Admins manage them, and asks the server for nothing', async () => {
    const { sent } = serveWebhooks(twoWebhooks());
    signedInAs({ isAdmin: false });
    const { router } = await openSettings();
    expect(screen.getByText("Only your company's Admins manage webhooks.")).toBeInTheDocument();
    expect(sent.lists).toBe(0);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add webhook' })).not.toBeInTheDocument();
    expect(locationOf(router)).toBe('/settings');
  });
});
