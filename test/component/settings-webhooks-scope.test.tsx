import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookMessages } from '../../src/api/contract/webhooks';
import { api, fail, http, server } from './support/msw';
import { optionsOf, signedInAs } from './support/users-fixtures';
import {
  aWebhook,
  openSettings,
  serveWebhooks,
  webhookRow as rowOf,
  webhooksTable,
} from './support/webhooks-fixtures';
import { typeText } from './support/typing';

/**
 * A reseller's staff Admin chooses whose events a new webhook sends (their own company's, or all
 * their customers'), and sees it in the list; nobody else is offered the choice.
 */

afterEach(() => {
  act(() => notifications.clean());
});

async function openAddForm(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Add webhook' }));
  return waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-label="Add webhook"]');
    if (!form) throw new Error('the Add webhook form is not open');
    return form;
  });
}

/** The URL, and every event type. */
async function fillIn(user: UserEvent, form: HTMLElement, url: string) {
  await user.click(within(form).getByRole('textbox', { name: 'URL' }));
  await user.paste(url);
  const types = within(form).getByRole('combobox', { name: 'Event types' });
  await user.click(types);
  await typeText(user, types, 'all');
  const all = (await optionsOf(types)).find((o) => o.textContent?.startsWith('All events'));
  await user.click(all!);
}

const secretDialog = () =>
  waitFor(() => {
    const dialog = screen
      .getByText("Copy the webhook's signing secret")
      .closest<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('the secret dialog is not open');
    return dialog;
  });

const headers = () =>
  within(webhooksTable())
    .getAllByRole('columnheader')
    .map((th) => th.textContent);

describe('Settings: webhooks of a reseller’s staff', { timeout: 15_000 }, () => {
  it('lists whose events each webhook sends', async () => {
    signedInAs({ isReseller: true });
    serveWebhooks([
      aWebhook(1, { url: 'https://own.example.com/h' }),
      aWebhook(2, { url: 'https://billing.example.com/h', scope: 'customers' }),
    ]);
    await openSettings();
    expect(headers()).toEqual([
      'URL',
      'Events of',
      'Event types',
      'Created',
      'State',
      'Last event',
      'Actions',
    ]);
    expect(within(rowOf('https://own.example.com/h')).getByText('This company')).toBeVisible();
    expect(within(rowOf('https://billing.example.com/h')).getByText('All customers')).toBeVisible();
  });

  it('adds one for all the customers’ events when asked', async () => {
    signedInAs({ isReseller: true });
    const { sent } = serveWebhooks([]);
    const { user } = await openSettings();
    const form = await openAddForm(user);
    const scope = within(form).getByRole('radiogroup', { name: 'Events of' });
    expect(within(scope).getByRole('radio', { name: /^This company/ })).toBeChecked();
    await user.click(within(scope).getByRole('radio', { name: /^All customers/ }));
    await fillIn(user, form, 'https://billing.example.com/launchpad');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    const shown = await secretDialog();
    expect(sent.creates).toEqual([
      { url: 'https://billing.example.com/launchpad', events: ['*'], scope: 'customers' },
    ]);
    expect(shown).toHaveTextContent(
      'https://billing.example.com/launchpad · All customers · All events',
    );
    expect(
      within(rowOf('https://billing.example.com/launchpad')).getByText('All customers'),
    ).toBeInTheDocument();
  });

  it('adds one for the company’s own events by default', async () => {
    signedInAs({ isReseller: true });
    const { sent } = serveWebhooks([]);
    const { user } = await openSettings();
    const form = await openAddForm(user);
    await fillIn(user, form, 'https://own.example.com/launchpad');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    await secretDialog();
    expect(sent.creates).toEqual([
      { url: 'https://own.example.com/launchpad', events: ['*'], scope: 'company' },
    ]);
    expect(
      within(rowOf('https://own.example.com/launchpad')).getByText('This company'),
    ).toBeInTheDocument();
  });

  it('shows the server’s refusal of the choice at the choice', async () => {
    signedInAs({ isReseller: true });
    serveWebhooks([]);
    server.use(
      http.post(api('webhooks/create'), () =>
        fail(400, webhookMessages.customersScopeResellersOnly, [
          { field: 'scope', message: webhookMessages.customersScopeResellersOnly },
        ]),
      ),
    );
    const { user } = await openSettings();
    const form = await openAddForm(user);
    const scope = within(form).getByRole('radiogroup', { name: 'Events of' });
    await user.click(within(scope).getByRole('radio', { name: /^All customers/ }));
    await fillIn(user, form, 'https://billing.example.com/launchpad');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));

    // At the choice: the group's own error, where the form's validation would put one.
    await waitFor(() =>
      expect(scope).toHaveAccessibleDescription(
        expect.stringContaining(webhookMessages.customersScopeResellersOnly),
      ),
    );
    expect(within(form).getByRole('alert')).toHaveTextContent('Error adding webhook');
    expect(within(scope).getByRole('radio', { name: /^All customers/ })).toBeChecked();
  });
});

describe('Settings: webhooks of anyone else', { timeout: 15_000 }, () => {
  it('offers no choice of whose events, nor lists it, and sends none', async () => {
    signedInAs({ isReseller: false });
    const { sent } = serveWebhooks([aWebhook(1, { url: 'https://own.example.com/h' })]);
    const { user } = await openSettings();
    expect(headers()).not.toContain('Events of');
    expect(within(rowOf('https://own.example.com/h')).queryByText('This company')).toBeNull();

    const form = await openAddForm(user);
    expect(within(form).queryByRole('radiogroup', { name: 'Events of' })).toBeNull();
    expect(within(form).queryByText('All customers')).toBeNull();
    await fillIn(user, form, 'https://erp.example.com/launchpad');
    await user.click(within(form).getByRole('button', { name: 'Add webhook' }));
    await secretDialog();
    expect(sent.creates).toEqual([{ url: 'https://erp.example.com/launchpad', events: ['*'] }]);
  });
});
