import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/components/date-format';
import { aToken, serveApiTokens } from './support/api-tokens-fixtures';
import { api, fail, http, server } from './support/msw';
import { locationOf, renderApp } from './support/render';
import { aUserDetails, gate, serveUserPage, signedInAs } from './support/users-fixtures';
import { serveWebhooks } from './support/webhooks-fixtures';

// An Admin unless a test says otherwise (a later handler wins).
beforeEach(() => void signedInAs());

// Not returned: an awaited act() keeps its scope open into the next test's first steps.
afterEach(() => {
  act(() => notifications.clean());
});

const tokensTable = () => screen.getByRole('table', { name: 'API tokens' });
const tokenRows = () => within(tokensTable()).getAllByRole('row').slice(1);
const rowOf = (name: string) => within(tokensTable()).getByText(name).closest('tr')!;

async function openTokensTab(path = '/settings?tab=apiTokens') {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'Settings' });
  await waitFor(() => expect(screen.queryByLabelText('Loading data')).not.toBeInTheDocument());
  return view;
}

const grace = { id: 3, name: 'Grace Hopper', email: 'grace@example.com' };
const ada = { id: 7, name: 'Ada Lovelace', email: 'ada@example.com' };

/** The company's tokens as the server answers `?all=true`: everyone's, in one list. */
const companyTokens = () => [
  aToken(1, {
    name: 'CI deploys',
    user: grace,
    access: 'readWrite',
    teams: [{ id: 11, name: 'Operations' }],
    createdAt: '2026-09-01T10:00:00.000Z',
    lastUsedAt: '2026-11-20T08:30:00.000Z',
    lastUsedFrom: '203.0.113.7',
  }),
  aToken(2, { name: 'Billing sync', user: ada }),
];

describe('Settings: the company’s API tokens (Admins)', () => {
  it('lists every token of the company with its owner, linked to their page', async () => {
    const { sent } = serveApiTokens({ 7: companyTokens() });
    const { user, router } = await openTokensTab();
    expect(screen.getByRole('tab', { name: 'API tokens' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(sent.listQueries).toEqual([{ all: 'true' }]);
    expect(
      within(tokensTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Owner', 'Name', 'Access', 'Created', 'Expires', 'Last used', 'Actions']);
    expect(tokenRows()).toHaveLength(2);

    const ci = within(rowOf('CI deploys'));
    expect(ci.getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/user?id=3');
    expect(ci.getByText('grace@example.com')).toBeInTheDocument();
    expect(ci.getByText('Read and write')).toBeInTheDocument();
    expect(ci.getByText('Operations')).toBeInTheDocument();
    expect(ci.getByText(formatDate(new Date('2026-09-01T10:00:00.000Z')))).toBeInTheDocument();
    expect(ci.getByText('from 203.0.113.7')).toBeInTheDocument();
    expect(
      within(rowOf('Billing sync')).getByRole('link', { name: 'Ada Lovelace' }),
    ).toHaveAttribute('href', '/user?id=7');
    // Each person makes their own on their Profile: nothing to create here.
    expect(screen.queryByRole('button', { name: 'Create token' })).not.toBeInTheDocument();

    serveUserPage({ users: [aUserDetails({ id: 3 })], memberships: { 3: [] } });
    await user.click(ci.getByRole('link', { name: 'Grace Hopper' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' })).toBeVisible();
    expect(locationOf(router)).toBe('/user?id=3');
  });

  it('revokes a token after a confirmation naming it and its owner', async () => {
    const { sent } = serveApiTokens({ 7: companyTokens() });
    const { user } = await openTokensTab();
    await user.click(screen.getByRole('button', { name: 'Revoke CI deploys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke CI deploys?' });
    expect(dialog).toHaveTextContent(
      'Scripts and tools using CI deploys (Grace Hopper’s token) stop working at once.',
    );
    expect(sent.deletes).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('API token revoked')).toBeInTheDocument();
    expect(sent.deletes).toEqual([1]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tokenRows()).toHaveLength(1);
    expect(within(tokensTable()).queryByText('CI deploys')).not.toBeInTheDocument();
  });

  it('keeps the row and shows the reason when revoking fails', async () => {
    const held = gate();
    serveApiTokens({ 7: companyTokens() });
    server.use(
      http.delete(api('apiTokens/delete/:id'), async () => {
        await held.promise;
        return fail(404, 'API token not found');
      }),
    );
    const { user } = await openTokensTab();
    await user.click(screen.getByRole('button', { name: 'Revoke CI deploys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke CI deploys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Revoking...')).toBeInTheDocument();
    act(() => held.release());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error revoking API token: API token not found',
    );
    expect(tokenRows()).toHaveLength(2);
  });

  it('says so when the company has no token', async () => {
    serveApiTokens({});
    await openTokensTab();
    expect(
      within(tokensTable()).getByText('Nobody in the company has an API token.'),
    ).toBeInTheDocument();
  });

  it('shows a failure to load the tokens inside the tab', async () => {
    server.use(http.get(api('apiTokens/list'), () => fail(500, 'Database unavailable')));
    await renderApp('/settings?tab=apiTokens');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error fetching API tokens')).toBeInTheDocument();
    expect(within(alert).getByText('Database unavailable')).toBeInTheDocument();
  });
});

describe('Settings: tabs as deep links', () => {
  it('switches tabs through the address, each loading its own list', async () => {
    const webhooks = serveWebhooks([]);
    const tokens = serveApiTokens({ 7: companyTokens() });
    const { user, router } = await openTokensTab('/settings');
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(tokens.sent.listQueries).toEqual([]);

    await user.click(screen.getByRole('tab', { name: 'API tokens' }));
    await waitFor(() => expect(locationOf(router)).toBe('/settings?tab=apiTokens'));
    expect(await within(tokensTable()).findByText('CI deploys')).toBeInTheDocument();

    // From the keyboard: the arrow keys move between tabs.
    screen.getByRole('tab', { name: 'API tokens' }).focus();
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(locationOf(router)).toBe('/settings'));
    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
    expect(webhooks.sent.lists).toBeGreaterThan(0);
  });

  it('opens Webhooks for a tab it does not know', async () => {
    serveWebhooks([]);
    const { router } = await openTokensTab('/settings?tab=billing');
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(locationOf(router)).toBe('/settings');
  });
});

describe('Settings: API tokens for anybody but an Admin', () => {
  it('points to their own tokens on their Profile, and asks the server for nothing', async () => {
    const { sent } = serveApiTokens({ 7: companyTokens() });
    signedInAs({ isAdmin: false });
    const { user, router } = await openTokensTab();
    const notice = screen
      .getByText(/^Only your company's Admins see every API token\./)
      .closest<HTMLElement>('.mantine-Alert-root')!;
    expect(notice).toHaveTextContent(
      "Only your company's Admins see every API token. Your own tokens are on your Profile.",
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(sent.listQueries).toEqual([]);

    serveUserPage({ users: [aUserDetails({ id: 7, firstName: 'Ada', lastName: 'Lovelace' })] });
    await user.click(within(notice).getByRole('link', { name: 'Profile' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' })).toBeVisible();
    expect(locationOf(router)).toBe('/user?id=7');
  });
});
