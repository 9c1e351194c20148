import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labProviderConfig, readBuiltImage } from '../../scripts/libvirt/lab-config';
import { outside, startLabHost, stopLabHost, type LabHost } from '../../scripts/libvirt/lab-host';
import { launchChromium, screenshot } from '../e2e/browser';
import { screenText, typeKeys } from '../e2e/guest-screen';
import { choose, signIn } from '../e2e/journey';
import { startServer, type RunningServer } from '../e2e/server-process';
import { inBox, markers } from './lab';

const ADMIN = { email: 'lab-admin@example.com', password: 'Lab!Console-Passw0rd' };

/**
 * The journey of a real guest in Chromium, on a libvirt region of a lab host: create, Running,
 * the console (its screen read back from noVNC's canvas, typed into), stop, start, upgrade, a
 * second interface, a public IP answered from outside, delete — nothing left on the host.
 */
describe('a real VM in Chromium, on a libvirt region', () => {
  let lab: LabHost;
  let server: RunningServer;
  let browser: Browser;
  let baseDir: string;

  const domains = () => inBox(lab, 'virsh -q list --all --name').trim().split('\n').filter(Boolean);
  const serial = (domain: string) =>
    inBox(lab, `cat ${lab.stateDir}/logs/${domain}.serial.log 2>/dev/null || true`);

  beforeAll(async () => {
    baseDir = mkdtempSync(path.join(tmpdir(), 'lpjourney-'));
    chmodSync(baseDir, 0o755);
    lab = await startLabHost({ baseDir });
    const configFile = path.join(baseDir, 'provider.json');
    writeFileSync(configFile, JSON.stringify(labProviderConfig(lab, readBuiltImage())));
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        LIBVIRT_CONFIG: configFile,
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (lab) stopLabHost(lab);
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
  });

  it('create -> Running -> console -> stop, start, upgrade, interface, public IP -> delete', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
    await page.getByLabel('Name', { exact: true }).fill('lab');
    await choose(page, 'Country', 'Iceland');
    await choose(page, 'Region', /Reykjavik/);
    await choose(page, 'Image', 'Launchpad test image');
    await choose(page, 'Size', /^Micro/);
    await choose(page, 'Number of Instances', /^1$/);
    await screenshot(page, 'libvirt-01-create');
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /lab.*Running/ }).waitFor({ timeout: 120_000 });
    await screenshot(page, 'libvirt-02-running');
    const [domain] = domains();

    await page.getByRole('link', { name: /Details of lab/ }).click();
    await page.getByRole('heading', { name: /^lab/ }).waitFor();
    // Its public IP answers from outside its network.
    const primary = page.getByRole('row', { name: /203\.0\.113\.\d+/ });
    await primary.waitFor();
    const firstIp = /203\.0\.113\.\d+/.exec((await primary.textContent())!)![0];
    await expect
      .poll(() => outside(lab, ['curl', '-sS', '-m', '3', `http://${firstIp}/`]), {
        timeout: 60_000,
      })
      .toContain('hello from lab');
    const name = (await page.getByRole('heading', { name: /^lab/ }).textContent())!.trim();

    await page.getByRole('button', { name: 'Show password' }).click();
    const password = (await page.getByTestId('vm-password').textContent())!.trim();

    // The console: noVNC in the console tab's frame, connected to the guest's screen.
    const [consoleTab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Console' }).click(),
    ]);
    const frame = await (async () => {
      await consoleTab.locator('iframe').waitFor();
      const handle = await consoleTab.locator('iframe').elementHandle();
      return (await handle!.contentFrame())!;
    })();
    await frame.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    // The guest's own words, read off the canvas.
    await expect
      .poll(async () => screenText(frame, 'libvirt-03-console-text'), { timeout: 30_000 })
      .toMatch(/login:/);
    // Typed into: a login at the screen's prompt with the VM's user and password.
    await frame.locator('canvas').click();
    await typeKeys(consoleTab, 'launchpad\n');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await typeKeys(consoleTab, `${password}\n`);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await typeKeys(consoleTab, 'echo typed-$((6*7))\n');
    await expect
      .poll(async () => screenText(frame, 'libvirt-04-console-typed'), { timeout: 30_000 })
      .toMatch(/typed-42/);
    await screenshot(consoleTab, 'libvirt-05-console');
    await consoleTab.close();

    // Stop and start.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 90_000 });
    expect(markers(serial(domain!), 'POWEROFF').length).toBe(1);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 90_000 });

    // Upgrade to Extra Small: the guest comes back with four vCPUs and 120 GB of disk.
    await page.getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('radio', { name: /^Extra Small/ }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByText(/can take up to a minute/).waitFor();
    await page.getByRole('button', { name: 'Return' }).click();
    await page.getByText('Extra Small', { exact: true }).waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 120_000 });
    await expect
      .poll(() => markers(serial(domain!), 'HW').at(-1), { timeout: 60_000 })
      .toMatch(/cpus=4 .*disk_bytes=128849018880/);
    await screenshot(page, 'libvirt-06-upgraded');

    // A second interface on a new network, plugged in while stopped; then a public IP on it.
    await page.getByRole('link', { name: 'Networks' }).click();
    await page.getByRole('button', { name: 'Create Network' }).click();
    await page.getByLabel('Network Name').fill('backend');
    await choose(page, 'Region', /Iceland/);
    await page.getByRole('radio', { name: 'Standard' }).check();
    await page.getByLabel('CIDR Block').fill('172.30.0.0/24');
    await page.getByRole('button', { name: 'Use these values' }).click();
    await page.getByRole('button', { name: 'Create Network' }).click();
    await page.getByRole('heading', { name: 'backend' }).waitFor();
    await page.goBack();
    await page.goBack();
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('link', { name: /Details of lab/ }).click();
    await page.getByRole('button', { name: 'Edit VM' }).click();
    await page.getByRole('button', { name: 'Add Interface', disabled: false }).click();
    const stop = page.getByRole('dialog', { name: new RegExp(`Stop ${name}\\?`) });
    await stop.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('VM stopped successfully').waitFor({ timeout: 90_000 });
    await page
      .getByRole('button', { name: 'Add Interface', disabled: false })
      .click({ timeout: 90_000 });
    const add = page.getByRole('dialog', { name: 'Add Network Interface' });
    await choose(page, 'Network', /^backend/);
    await add.getByRole('button', { name: 'Add Interface' }).click();
    await page.getByRole('button', { name: 'Continue Working' }).click();
    await page
      .getByRole('row', { name: /backend/ })
      .filter({ hasNotText: 'Attaching' })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Allocate' }).click();
    await page.getByText('IP allocated successfully').waitFor();
    const row = page.getByRole('row', { name: /backend.*203\.0\.113\..*NAT Enabled/ });
    await row.waitFor({ timeout: 60_000 });
    const publicIp = /203\.0\.113\.\d+/.exec((await row.textContent())!)![0];
    await screenshot(page, 'libvirt-07-interfaces');

    // Started again, the guest answers on the new public IP from outside its network.
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('link', { name: /Details of lab/ }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 90_000 });
    await expect
      .poll(() => outside(lab, ['curl', '-sS', '-m', '3', `http://${publicIp}/`]), {
        timeout: 60_000,
      })
      .toContain(`hello from ${name}`);

    // Deleted: nothing of it is left on the host.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /lab/ }).waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(domains, { timeout: 60_000 }).toEqual([]);
    await expect
      .poll(
        () =>
          inBox(lab, `ls ${lab.stateDir}/disks ${lab.stateDir}/logs`)
            .replace(/.*:\n?/g, '')
            .trim(),
        { timeout: 30_000 },
      )
      .toBe('');
    await screenshot(page, 'libvirt-08-deleted');
    expect(errors).toEqual([]);
    await context.close();
  });
});
