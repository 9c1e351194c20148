import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, runningVm, type ApiCall } from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { overflowOf } from './support/layout';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'reinstall-admin@example.com', password: 'Reinstall!Journey-Passw0rd' };
const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * Reinstall in Chromium: the dialog on the VM's page (image, SSH keys, the warning, the VM's name
 * typed before it enables), the VM reinstalling, then its new image and a new password revealed;
 * on a desktop and on a phone.
 */
describe('reinstalling a VM, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let call: ApiCall;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '2',
      }),
      launchChromium(),
    ]);
    call = await apiSession(server, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openDialog(page: Page, id: number, name: string) {
    await signIn(page, server, '/', ADMIN);
    await page.goto(`${server.url}/virtualMachineDetails/${id}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByRole('button', { name: 'Reinstall' }).click();
    const dialog = page.getByRole('dialog', { name: `Reinstall ${name}` });
    await dialog.getByText('Everything on its disk is erased').waitFor();
    return dialog;
  }

  it('desktop: reinstall from another image, then read the new password', async () => {
    const errors: string[] = [];
    const id = await runningVm(call, 'phoenix', true);
    const before = await call<{ sshPassword: string }>('GET', `/virtualMachines/getPassword/${id}`);
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    const dialog = await openDialog(page, id, 'phoenix');
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'Image' }).inputValue())
      .toBe('Ubuntu 24.04 LTS');
    await choose(page, 'Image', 'Debian 12');
    const confirm = dialog.getByRole('button', { name: 'Reinstall' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: /to confirm/ }).fill('phoenix');
    expect(await confirm.isEnabled()).toBe(true);
    await screenshot(page, 'reinstall-01-dialog-desktop');

    await confirm.click();
    await dialog.getByText(/The reinstall has started/).waitFor();
    await screenshot(page, 'reinstall-02-started-desktop');
    await dialog.getByRole('button', { name: 'Return' }).click();
    await page.getByText('Debian 12', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.locator('[data-status="Running"]').first().waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Show password' }).click();
    const shown = await page.getByTestId('vm-password').textContent();
    expect(shown).toHaveLength(20);
    expect(shown).not.toBe(before.sshPassword);
    await screenshot(page, 'reinstall-03-done-desktop');
    expect((await overflowOf(page)).document).toBe(0);
    expect(errors).toEqual([]);
  });

  it('phone: the dialog fits the screen, and keeps the name gate', async () => {
    const errors: string[] = [];
    const id = await runningVm(call, 'pocket', true);
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    const dialog = await openDialog(page, id, 'pocket');
    await dialog.getByRole('textbox', { name: /to confirm/ }).fill('pock');
    expect(await dialog.getByRole('button', { name: 'Reinstall' }).isDisabled()).toBe(true);
    await screenshot(page, 'reinstall-04-dialog-phone');
    expect((await overflowOf(page)).document).toBe(0);
    expect(errors).toEqual([]);
  });
});
