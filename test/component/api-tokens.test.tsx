import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../src/components/date-format';
import { aToken, SECRET, serveApiTokens } from './support/api-tokens-fixtures';
import { api, fail, http, server } from './support/msw';
import { renderApp } from './support/render';
import { aUserDetails, gate, pick, serveUserPage, signedInAs } from './support/users-fixtures';
import { typeText } from './support/typing';

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const DAY_MS = 24 * 60 * 60_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const tokensTable = () => screen.getByRole('table', { name: 'API tokens' });
const tokenRows = () => within(tokensTable()).getAllByRole('row').slice(1);
const rowOf = (name: string) => within(tokensTable()).getByText(name).closest('tr')!;
const dialog = () => screen.getByRole('dialog');
const button = (name: string | RegExp) => screen.getByRole('button', { name });

/** Ada (id 7) on her own profile: not an Admin, which changes nothing on one's own page. */
function serveOwnProfile() {
  return serveUserPage({
    users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })],
    memberships: { 7: [] },
  });
}

async function openUserPage(path: string, heading: string) {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 2, name: heading });
  // Profile loads its sections side by side (memberships, SSH keys, security, sessions, tokens).
  await waitFor(() => expect(screen.queryByLabelText('Loading data')).not.toBeInTheDocument(), {
    timeout: 10_000,
  });
  return view;
}

/**
 * Opens the create form. Found by its label rather than its role: a role query walks the whole
 * page's accessibility tree, and this is the slowest step of the form's tests.
 */
async function openCreateForm(user: UserEvent) {
  await user.click(button('Create token'));
  return waitFor(() => {
    const form = document.querySelector<HTMLFormElement>('form[aria-label="Create API token"]');
    if (!form) throw new Error('the Create API token form is not open');
    return form;
  });
}

/** The dialog that shows a new secret, once it is open (by its title, for the same reason). */
const secretDialog = () =>
  waitFor(() => {
    const dialog = screen
      .getByText('Copy your new API token')
      .closest<HTMLElement>('[role="dialog"]');
    if (!dialog) throw new Error('the secret dialog is not open');
    return dialog;
  });

const twoTokens = () => [
  aToken(1, {
    name: 'CI deploys',
    access: 'readWrite',
    createdAt: '2026-09-01T10:00:00.000Z',
    expiresAt: inDays(60),
    lastUsedAt: '2026-11-20T08:30:00.000Z',
    lastUsedFrom: '203.0.113.7',
    teams: [
      { id: 11, name: 'Operations' },
      { id: 12, name: 'Web' },
    ],
  }),
  aToken(2, {
    name: 'Old billing sync',
    createdAt: '2025-11-01T10:00:00.000Z',
    expiresAt: '2026-11-01T10:00:00.000Z',
  }),
];

describe('API tokens: one’s own profile', () => {
  it('lists the tokens: name, access, created, expires (expired marked), last use', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({ 7: twoTokens() });
    await openUserPage('/user?id=7', 'Ada Lovelace');

    expect(screen.getByRole('heading', { level: 3, name: 'API tokens' })).toBeInTheDocument();
    // One's own tokens: the list names nobody.
    expect(sent.listQueries).toEqual([{}]);
    expect(
      within(tokensTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Access', 'Created', 'Expires', 'Last used', 'Actions']);
    expect(tokenRows()).toHaveLength(2);

    const ci = within(rowOf('CI deploys'));
    expect(ci.getByText('Read and write')).toBeInTheDocument();
    expect(ci.getByText('Operations, Web')).toBeInTheDocument();
    expect(ci.getByText(formatDate(new Date('2026-09-01T10:00:00.000Z')))).toBeInTheDocument();
    expect(ci.queryByText('Expired')).not.toBeInTheDocument();
    expect(ci.getByText(formatDateTime(new Date('2026-11-20T08:30:00.000Z')))).toBeInTheDocument();
    expect(ci.getByText('from 203.0.113.7')).toBeInTheDocument();

    const old = within(rowOf('Old billing sync'));
    expect(old.getByText('Read only')).toBeInTheDocument();
    expect(old.getByText('All teams')).toBeInTheDocument();
    expect(old.getByText('Expired')).toBeInTheDocument();
    // The day in the list, the moment in its title.
    expect(old.getByText(formatDate(new Date('2026-11-01T10:00:00.000Z')))).toHaveAttribute(
      'title',
      formatDateTime(new Date('2026-11-01T10:00:00.000Z')),
    );
    expect(old.getByText('Never')).toBeInTheDocument();

    expect(button('Create token')).toBeInTheDocument();
    expect(button('Revoke all')).toBeInTheDocument();
    expect(button('Revoke CI deploys')).toBeInTheDocument();
  });

  it('says what tokens are for when there are none, without Revoke all', async () => {
    serveOwnProfile();
    serveApiTokens({});
    await openUserPage('/user?id=7', 'Ada Lovelace');
    expect(within(tokensTable()).getByText(/^No API tokens yet\./)).toHaveTextContent(
      /launchpad CLI use the API as you/,
    );
    expect(button('Create token')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke all' })).not.toBeInTheDocument();
  });

  it('shows a failure to load the tokens inside the section, the page still there', async () => {
    serveOwnProfile();
    server.use(http.get(api('apiTokens/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/user?id=7');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching API tokens')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('creates a token with the chosen expiry and access, and lists it', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({ 7: twoTokens() });
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');

    const form = await openCreateForm(user);
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveFocus());
    await typeText(user, name, '  Terraform  ');
    const expires = within(form).getByRole('combobox', { name: 'Expires' });
    expect(expires).toHaveValue('90 days');
    await pick(user, expires, '30 days');
    await user.click(within(form).getByRole('radio', { name: /Read and write/ }));
    const before = Date.now();
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    await secretDialog();
    expect(sent.creates).toHaveLength(1);
    const [body] = sent.creates;
    expect(body).toEqual({ name: 'Terraform', access: 'readWrite', expiresAt: body!.expiresAt });
    const expiresAt = new Date(body!.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    // Already listed behind the dialog.
    expect(tokenRows()).toHaveLength(3);
    expect(within(rowOf('Terraform')).getByText('Read and write')).toBeInTheDocument();
    expect(within(rowOf('Terraform')).getByText('All teams')).toBeInTheDocument();
  });

  it('shows the new secret once, with a warning and a copy button', async () => {
    serveOwnProfile();
    serveApiTokens({});
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), 'CI');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const shown = await secretDialog();
    expect(within(shown).getByText('It will not be shown again')).toBeInTheDocument();
    expect(within(shown).getByLabelText('Token')).toHaveTextContent(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await screen.findByText('API token copied to clipboard')).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Shown once: nowhere on the page any more, the token itself listed.
    expect(document.body.textContent).not.toContain(SECRET);
    expect(within(tokensTable()).getByText('CI')).toBeInTheDocument();
  });

  it('narrows a token to the teams chosen', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({});
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), 'Ops bot');
    const teams = within(form).getByRole('combobox', { name: 'Teams' });
    await waitFor(() => expect(teams).toBeEnabled());
    await pick(user, teams, 'Operations');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    const shown = await secretDialog();
    expect(sent.creates).toMatchObject([{ name: 'Ops bot', teamIds: [11] }]);
    expect(shown).toHaveTextContent('Read only · Operations · expires');
    expect(within(rowOf('Ops bot')).getByText('Operations')).toBeInTheDocument();
  });

  it('expires at the end of a chosen day, a year from today at most', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({});
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), 'Backups');
    await pick(user, within(form).getByRole('combobox', { name: 'Expires' }), 'Choose a date');
    const day = within(form).getByLabelText('Expiry date');
    const inAYearAndADay = new Date(Date.now() + 367 * DAY_MS);
    const tooFar = dayString(inAYearAndADay);
    expect(day).toHaveAttribute('max');
    expect(day.getAttribute('max')! < tooFar).toBe(true);

    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByText('Choose the day the token stops working')).toBeVisible();
    expect(day).toHaveFocus();
    await user.type(day, tooFar);
    expect(await within(form).findByText('A token may last one year at most')).toBeVisible();
    expect(sent.creates).toEqual([]);

    await user.clear(day);
    const chosen = dayString(new Date(Date.now() + 45 * DAY_MS));
    await user.type(day, chosen);
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await secretDialog();
    const [year, month, date] = chosen.split('-').map(Number);
    expect(sent.creates).toEqual([
      {
        name: 'Backups',
        access: 'read',
        expiresAt: new Date(year!, month! - 1, date!, 23, 59, 59, 999).toISOString(),
      },
    ]);
  });

  it('checks the name before sending anything', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({});
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByText('Token name cannot be empty')).toBeVisible();
    expect(sent.creates).toEqual([]);
  });

  it('shows a 400 naming expiresAt on the expiry, keeping what was typed', async () => {
    serveOwnProfile();
    serveApiTokens({});
    const message = 'A token may last one year at most';
    server.use(
      http.post(api('apiTokens/create'), () =>
        fail(400, message, [{ field: 'expiresAt', message }]),
      ),
    );
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await typeText(user, name, 'Nightly');
    await pick(user, within(form).getByRole('combobox', { name: 'Expires' }), '1 year');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const alert = await within(form).findByRole('alert');
    expect(within(alert).getByText('Error creating API token')).toBeInTheDocument();
    expect(within(alert).getByText(message)).toBeInTheDocument();
    expect(within(form).getByRole('combobox', { name: 'Expires' })).toHaveAccessibleDescription(
      expect.stringContaining(message),
    );
    expect(name).toHaveValue('Nightly');
    expect(within(form).getByRole('combobox', { name: 'Expires' })).toHaveValue('1 year');
    expect(screen.queryByRole('dialog', { name: 'Copy your new API token' })).toBeNull();
    expect(within(tokensTable()).queryByText('Nightly')).not.toBeInTheDocument();
  });

  it('shows a 400 naming expiresAt on the chosen day when a day was chosen', async () => {
    serveOwnProfile();
    serveApiTokens({});
    const message = 'The expiry must be in the future';
    server.use(
      http.post(api('apiTokens/create'), () =>
        fail(400, message, [{ field: 'expiresAt', message }]),
      ),
    );
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), 'Nightly');
    await pick(user, within(form).getByRole('combobox', { name: 'Expires' }), 'Choose a date');
    const day = within(form).getByLabelText('Expiry date');
    const chosen = dayString(new Date(Date.now() + 10 * DAY_MS));
    await user.type(day, chosen);
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(day).toHaveAccessibleDescription(expect.stringContaining(message)));
    expect(day).toHaveValue(chosen);
  });

  it('shows a 400 naming a team on the teams field', async () => {
    serveOwnProfile();
    serveApiTokens({});
    server.use(
      http.post(api('apiTokens/create'), () =>
        fail(400, 'Team not found', [{ field: 'teamIds.0', message: 'Team not found' }]),
      ),
    );
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    const form = await openCreateForm(user);
    await typeText(user, within(form).getByRole('textbox', { name: 'Name' }), 'Ops bot');
    const teams = within(form).getByRole('combobox', { name: 'Teams' });
    await waitFor(() => expect(teams).toBeEnabled());
    await pick(user, teams, 'Web');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() =>
      expect(teams).toHaveAccessibleDescription(expect.stringContaining('Team not found')),
    );
  });

  it('revokes a token after confirmation', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({ 7: twoTokens() });
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    await user.click(button('Revoke CI deploys'));
    await screen.findByRole('dialog');
    expect(dialog()).toHaveTextContent('Revoke CI deploys?');
    expect(sent.deletes).toEqual([]);
    await user.click(within(dialog()).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('API token revoked')).toBeInTheDocument();
    expect(sent.deletes).toEqual([1]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tokenRows()).toHaveLength(1);
    expect(within(tokensTable()).queryByText('CI deploys')).not.toBeInTheDocument();
  });

  it('keeps the row and shows the message when revoking fails', async () => {
    const held = gate();
    serveOwnProfile();
    serveApiTokens({ 7: twoTokens() });
    server.use(
      http.delete(api('apiTokens/delete/:id'), async () => {
        await held.promise;
        return fail(404, 'API token not found');
      }),
    );
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    await user.click(button('Revoke CI deploys'));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }),
    );
    expect(await within(dialog()).findByText('Revoking...')).toBeInTheDocument();
    act(() => held.release());
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Error revoking API token: API token not found',
    );
    expect(tokenRows()).toHaveLength(2);
    expect(within(tokensTable()).getByText('CI deploys')).toBeInTheDocument();
  });

  it('revokes all of one’s tokens after confirmation', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({ 7: twoTokens() });
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    await user.click(button('Revoke all'));
    await screen.findByRole('dialog');
    expect(dialog()).toHaveTextContent('All 2 of your API tokens stop working at once');
    await user.click(within(dialog()).getByRole('button', { name: 'Revoke all' }));
    expect(await screen.findByText('API tokens revoked')).toBeInTheDocument();
    expect(sent.revokeAlls).toEqual([{}]);
    expect(await within(tokensTable()).findByText(/^No API tokens yet/)).toBeInTheDocument();
  });

  it('works from the keyboard: open the form, fill it, submit with Enter, close with Escape', async () => {
    serveOwnProfile();
    const { sent } = serveApiTokens({});
    const { user } = await openUserPage('/user?id=7', 'Ada Lovelace');
    button('Create token').focus();
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: 'Create API token' });
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveFocus());
    await user.keyboard('Laptop{Enter}');
    const shown = await secretDialog();
    expect(sent.creates).toMatchObject([{ name: 'Laptop', access: 'read' }]);
    // No team chosen: the token covers every team, and says so by leaving teamIds out.
    expect(sent.creates[0]).not.toHaveProperty('teamIds');
    await waitFor(() =>
      expect(within(shown).getByRole('button', { name: 'Copy token' })).toHaveFocus(),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('API tokens: another user’s page', () => {
  it('shows an Admin that user’s tokens, to revoke but not to create', async () => {
    serveUserPage({ memberships: { 3: [] } });
    const { sent } = serveApiTokens({
      3: [aToken(5, { name: 'Grace’s script', user: { id: 3, name: 'Grace Hopper', email: 'g' } })],
    });
    const { user } = await openUserPage('/user?id=3', 'Grace Hopper');
    expect(sent.listQueries).toEqual([{ userId: '3' }]);
    expect(within(tokensTable()).getByText('Grace’s script')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create token' })).not.toBeInTheDocument();
    expect(button('Revoke Grace’s script')).toBeInTheDocument();

    await user.click(button('Revoke all'));
    await screen.findByRole('dialog');
    expect(dialog()).toHaveTextContent('Grace Hopper’s API token stops working at once');
    await user.click(within(dialog()).getByRole('button', { name: 'Revoke all' }));
    expect(await screen.findByText('API tokens revoked')).toBeInTheDocument();
    expect(sent.revokeAlls).toEqual([{ userId: 3 }]);
    expect(await within(tokensTable()).findByText('No API tokens yet.')).toBeInTheDocument();
  });

  it('shows nothing of another user’s tokens to a user who is not an Admin', async () => {
    serveUserPage({ memberships: { 3: [] } });
    signedInAs({ isAdmin: false });
    const { sent } = serveApiTokens({ 3: [aToken(5)] });
    await openUserPage('/user?id=3', 'Grace Hopper');
    expect(screen.getByRole('heading', { name: 'Team Memberships' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'API tokens' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke all' })).not.toBeInTheDocument();
    expect(sent.listQueries).toEqual([]);
  });
});

function dayString(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
