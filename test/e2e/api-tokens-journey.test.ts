import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenMessages } from '../../src/api/contract/api-tokens';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'tokens-admin@example.com', password: 'Tokens!Journey-Passw0rd' };

/**
 * Issue 34's console journey in Chromium: a user makes a token on their profile, copies it from
 * the one dialog that shows it, sees it listed, uses it as a script would, sees that use, and
 * revokes it, after which it is refused at once.
 */
describe('personal API tokens, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(errors: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  const asScript = (secret: string, method: string, path: string) =>
    fetch(`${server.url}/api/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : JSON.stringify({}),
    });

  it('create -> copy once -> listed -> used -> revoked and refused', async () => {
    const errors: string[] = [];
    const page = await newPage(errors);
    await signIn(page, server, '/', ADMIN);
    await page.getByRole('link', { name: 'Profile' }).click();
    const tokens = page.getByRole('table', { name: 'API tokens' });
    await tokens.getByText(/^No API tokens yet/).waitFor();

    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.getByRole('form', { name: 'Create API token' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Nightly report');
    await choose(page, 'Expires', '30 days');
    await screenshot(page, 'tokens-01-create');
    await form.getByRole('button', { name: 'Create token' }).click();

    const dialog = page.getByRole('dialog', { name: 'Copy your new API token' });
    await dialog.getByText('It will not be shown again').waitFor();
    await dialog.getByRole('button', { name: 'Copy token' }).click();
    // A string: the server's TypeScript project has no DOM types.
    const secret = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(secret).toMatch(/^lp_[0-9A-Za-z]{43}$/);
    expect(await dialog.getByLabel('Token').textContent()).toBe(secret);
    await screenshot(page, 'tokens-02-secret');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.content()).not.toContain(secret);
    const row = tokens.getByRole('row').filter({ hasText: 'Nightly report' });
    await row.getByText('Read only').waitFor();
    await row.getByText('Never').waitFor();

    // Used as a script would: reading works, writing is refused for a read-only token.
    expect((await asScript(secret, 'GET', 'virtualMachines/list')).status).toBe(200);
    const write = await asScript(secret, 'POST', 'teams/create');
    expect(write.status).toBe(403);
    expect(((await write.json()) as { message: string }).message).toBe(apiTokenMessages.readOnly);
    await page.getByRole('button', { name: 'Refresh' }).last().click();
    await row.getByText(/^from /).waitFor();
    await screenshot(page, 'tokens-03-listed');

    await row.getByRole('button', { name: 'Revoke Nightly report' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Nightly report?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(apiTokenMessages.deleted).waitFor();
    await tokens.getByText(/^No API tokens yet/).waitFor();
    expect((await asScript(secret, 'GET', 'virtualMachines/list')).status).toBe(401);

    expect(errors).toEqual([]);
  });
});
