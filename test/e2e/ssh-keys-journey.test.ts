import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshKeyMessages } from '../../src/api/contract/ssh-keys';
import { ed25519Key, fingerprintOf, privateKeyText } from '../server/support/ssh-key-fixtures';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { overflowOf } from './support/layout';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'keys-admin@example.com', password: 'Keys!Journey-Passw0rd' };
const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * Issue 38's account SSH keys in Chromium: a user adds a key on their profile (a private key
 * pasted by mistake is refused at the field), picks it on Create VM instead of a generated pair,
 * and the VM then offers no private key to download; on a phone and on a desktop.
 */
describe('account SSH keys, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '2',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(viewport: { width: number; height: number }, errors: string[]) {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    return page;
  }

  async function openProfile(page: Page, phone = false) {
    await signIn(page, server, '/', ADMIN);
    // A phone's menu is behind the burger.
    if (phone) await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Profile' }).click();
    return page.getByRole('table', { name: 'SSH keys' });
  }

  async function addKey(page: Page, name: string, publicKey: string) {
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    const form = page.getByRole('form', { name: 'Add SSH key' });
    await form.getByRole('textbox', { name: 'Name' }).fill(name);
    await form.getByRole('textbox', { name: 'Public key' }).fill(publicKey);
    await form.getByRole('button', { name: 'Add key' }).click();
    return form;
  }

  it('desktop: add a key (a private key refused), create a VM with it instead of a pair', async () => {
    const errors: string[] = [];
    const page = await newPage(DESKTOP, errors);
    const keys = await openProfile(page);
    await keys.getByText(/^No SSH keys yet/).waitFor();

    const form = await addKey(page, 'Work laptop', privateKeyText());
    await form.getByText(sshKeyMessages.keyPrivate).waitFor();
    await screenshot(page, 'ssh-keys-01-refused-desktop');
    const key = ed25519Key('ada@laptop').publicKey;
    await form.getByRole('textbox', { name: 'Public key' }).fill(key);
    await form.getByRole('button', { name: 'Add key' }).click();
    await page.getByText(sshKeyMessages.created).waitFor();
    const row = keys.getByRole('row').filter({ hasText: 'Work laptop' });
    await row.getByText(fingerprintOf(key)).waitFor();
    await row.getByText('ED25519').waitFor();
    await screenshot(page, 'ssh-keys-02-listed-desktop');

    await page.goto(`${server.url}/createVirtualMachine`);
    await page.getByRole('heading', { name: 'Create Virtual Machine' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('keyed');
    await choose(page, 'Country', 'United States');
    await choose(page, 'Region', 'Los Angeles (US West)');
    await choose(page, 'Image', 'Ubuntu 24.04 LTS');
    await choose(page, 'Size', /^Small/);
    await choose(page, 'Provider', 'Sharktech');
    await choose(page, 'Number of Instances', /^1$/);
    await choose(page, 'SSH keys', 'Work laptop (ED25519)');
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'Generate a key pair as well' }).uncheck();
    await screenshot(page, 'ssh-keys-03-create-vm-desktop');
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();

    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('link', { name: 'Details of keyed' }).click();
    await page.getByRole('heading', { name: 'keyed' }).waitFor();
    await page.getByRole('button', { name: 'Upgrade' }).waitFor();
    expect(await page.getByRole('button', { name: 'Download Private Key' }).count()).toBe(0);
    expect((await overflowOf(page)).document).toBe(0);
    expect(errors).toEqual([]);
  });

  it('phone: the SSH keys section and the key picker fit the screen', async () => {
    const errors: string[] = [];
    const page = await newPage(PHONE, errors);
    const keys = await openProfile(page, true);
    await keys.getByText('Work laptop').waitFor();
    await page.getByRole('heading', { name: 'SSH keys' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'ssh-keys-04-listed-phone');
    expect((await overflowOf(page)).document).toBe(0);

    const form = await addKey(page, 'Broken', 'ssh-ed25519 AAAA');
    await form.getByText(sshKeyMessages.keyDamaged).waitFor();
    await screenshot(page, 'ssh-keys-05-refused-phone');
    await form.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${server.url}/createVirtualMachine`);
    await page.getByRole('heading', { name: 'Create Virtual Machine' }).waitFor();
    await choose(page, 'SSH keys', 'Work laptop (ED25519)');
    await page.keyboard.press('Escape');
    await page
      .getByRole('checkbox', { name: 'Generate a key pair as well' })
      .scrollIntoViewIfNeeded();
    await screenshot(page, 'ssh-keys-06-create-vm-phone');
    expect((await overflowOf(page)).document).toBe(0);
    expect(errors).toEqual([]);
  });
});
