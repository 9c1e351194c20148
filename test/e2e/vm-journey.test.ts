import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'vm-admin@example.com', password: 'Vm!Journey-Passw0rd' };

/**
 * The VM journey in Chromium, on the embedded sim engine with short timings: two VMs through the
 * create cascade, provisioning to Running on their own, stop and start, upgrade, rename, the key,
 * the console, and delete.
 */
describe('virtual machines, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '4',
        SIM_ACTION_SECONDS: '2',
        SIM_RESIZE_SECONDS: '3',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('create two -> Running -> stop and start -> upgrade -> rename -> delete the other', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    // The cascade: name, country, region, image, size, provider (two offer it here), copies.
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
    await page.getByRole('heading', { name: 'Create Virtual Machine' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('web');
    await choose(page, 'Country', 'United States');
    await choose(page, 'Region', 'Los Angeles (US West)');
    await choose(page, 'Image', 'Ubuntu 24.04 LTS');
    await choose(page, 'Size', /^Small/);
    await choose(page, 'Provider', 'Sharktech');
    await choose(page, 'Number of Instances', '2');
    expect(
      await page.getByRole('switch', { name: 'Allocate a public IP address' }).isChecked(),
    ).toBe(true);
    await screenshot(page, 'vm-01-create');
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();

    // The list shows both provisioning, then Running without a manual refresh.
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /web-1/ }).waitFor();
    await screenshot(page, 'vm-02-provisioning');
    for (const name of ['web-1', 'web-2']) {
      await page
        .getByRole('row', { name: new RegExp(`${name}.*Running`) })
        .waitFor({ timeout: 30_000 });
    }
    await screenshot(page, 'vm-03-running');

    // Stop and start web-1 from its details, each confirmed.
    await page.getByRole('link', { name: 'Details of web-1' }).click();
    await page.getByRole('heading', { name: 'web-1' }).waitFor();
    await screenshot(page, 'vm-04-details');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
    await page.getByText('VM is being stopped').waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'vm-05-stopped');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.getByText('VM is being started').waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 20_000 });

    // The private key downloads as privateKey.pem.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Private Key' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('privateKey.pem');

    // The console opens in a new tab at the login prompt.
    const [consoleTab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Console' }).click(),
    ]);
    await consoleTab.frameLocator('iframe').getByText('web-1 login:').waitFor();
    await screenshot(consoleTab, 'vm-06-console');
    await consoleTab.close();

    // Upgrade to Medium: the one-minute message, then the new size once it has taken effect.
    await page.getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('radio', { name: /^Medium/ }).check();
    await screenshot(page, 'vm-07-upgrade');
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByText(/can take up to a minute/).waitFor();
    await page.getByRole('button', { name: 'Return' }).click();
    await page.getByText('Medium', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 20_000 });

    // Rename it.
    await page.getByRole('button', { name: 'Edit VM' }).click();
    await page.getByLabel('VM Name').fill('web-main');
    await screenshot(page, 'vm-08-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('VM updated successfully').waitFor();

    // Delete the other one.
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('row', { name: /web-main.*Running/ }).waitFor();
    await page.getByRole('link', { name: 'Details of web-2' }).click();
    await page.getByRole('heading', { name: 'web-2' }).waitFor();
    // Delete waits in the Danger zone, apart from the everyday actions, and asks for the name.
    const dangerZone = page.getByRole('region', { name: 'Danger zone' });
    await dangerZone.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete web-2?' });
    const confirmDelete = dialog.getByRole('button', { name: 'Delete' });
    await dialog.getByRole('textbox', { name: 'Type web-2 to confirm' }).fill('web-');
    expect(await confirmDelete.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Type web-2 to confirm' }).fill('web-2');
    await screenshot(page, 'vm-09a-delete-confirm');
    await confirmDelete.click();
    await page.getByText('VM is being deleted').waitFor();
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /web-main/ }).waitFor();
    await page.getByRole('row', { name: /web-2/ }).waitFor({ state: 'detached' });
    await screenshot(page, 'vm-09-after-delete');

    // The dashboard counts this month's sizes: two Small (one became Medium), one Medium.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    // The figures of the first visit show until this visit's arrive (stale while revalidating).
    const small = page.getByRole('row', { name: /^Small/ });
    await expect.poll(() => small.textContent()).toMatch(/Small.*2.*2/);
    await expect
      .poll(() => page.getByRole('row', { name: /^Medium/ }).textContent())
      .toMatch(/Medium.*1.*1/);
    await screenshot(page, 'vm-10-dashboard');

    expect(errors).toEqual([]);
    await context.close();
  });
});
