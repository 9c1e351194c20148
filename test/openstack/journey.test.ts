import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot, shotsDir } from '../e2e/browser';
import { screenText, typeKeys } from '../e2e/guest-screen';
import { choose, signIn } from '../e2e/journey';
import { startServer, type RunningServer } from '../e2e/server-process';
import { fromOutside, labProvider, openstack, removeProductResources } from './cloud';

const ADMIN = { email: 'os-admin@example.com', password: 'Os!Console-Passw0rd' };

interface CliServer {
  ID: string;
  Name: string;
  Status: string;
  Flavor: string;
}
interface CliPort {
  ID: string;
  'MAC Address': string;
  'Fixed IP Addresses': { ip_address: string }[];
}
interface CliFloatingIp {
  'Floating IP Address': string;
  Port: string | null;
}

/** The product's servers in the cloud (its project), by the CLI. */
const servers = () => openstack<CliServer[]>('server', 'list', '--project', 'launchpad');
const portsOf = (id: string) => openstack<CliPort[]>('port', 'list', '--server', id);
const floatingIps = () =>
  openstack<CliFloatingIp[]>('floating', 'ip', 'list', '--project', 'launchpad');

/** Clicks a VM action and confirms it in its dialog. */
async function confirmAction(page: Page, action: string) {
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: action }).click();
}

/**
 * The console on an OpenStack region, in Chromium: a VM created, Running, its console, stopped
 * and started, upgraded (a Nova resize), given a second interface and a floating IP, deleted —
 * each step checked in the cloud with the OpenStack CLI.
 */
describe('a VM in Chromium, on an OpenStack region', () => {
  let server: RunningServer;
  let browser: Browser;
  let baseDir: string;

  beforeAll(async () => {
    removeProductResources('launchpad');
    baseDir = mkdtempSync(path.join(tmpdir(), 'lpos-journey-'));
    const configFile = path.join(baseDir, 'openstack.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        providers: [
          labProvider({
            key: 'lab-openstack',
            name: 'Lab OpenStack',
            project: 'launchpad',
            flavors: { micro: 'lp.micro', extraSmall: 'lp.extraSmall' },
          }),
        ],
      }),
    );
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        OPENSTACK_CONFIG: configFile,
        LOG_LEVEL: 'info',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    // The product's log beside the screenshots: what it did with the cloud, when a step failed.
    if (server) writeFileSync(path.join(shotsDir, 'openstack-journey-server.log'), server.output());
    await browser?.close();
    await server?.stop();
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
    removeProductResources('launchpad');
  });

  it('create -> Running -> console -> stop, start, upgrade, interface, floating IP -> delete', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
    await page.getByLabel('Name', { exact: true }).fill('osvm');
    await choose(page, 'Country', 'Iceland');
    await choose(page, 'Region', /Reykjavik/);
    await choose(page, 'Image', 'Test image');
    await choose(page, 'Size', /^Micro/);
    await choose(page, 'Number of Instances', /^1$/);
    await screenshot(page, 'openstack-01-create');
    await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /osvm.*Running/ }).waitFor({ timeout: 180_000 });
    await screenshot(page, 'openstack-02-running');

    await page.getByRole('link', { name: /Details of osvm/ }).click();
    const name = (await page.getByRole('heading', { name: /^osvm/ }).textContent())!.trim();
    const [cloudServer] = servers().filter((s) => s.Name === name);
    expect(cloudServer).toMatchObject({ Status: 'ACTIVE', Flavor: 'lp.micro' });
    const id = cloudServer!.ID;
    // Its floating IP answers from outside the cloud.
    const primary = page.getByRole('row', { name: /203\.0\.113\.\d+/ });
    await primary.waitFor();
    const firstIp = /203\.0\.113\.\d+/.exec((await primary.textContent())!)![0];
    expect(floatingIps()).toContainEqual(
      expect.objectContaining({ 'Floating IP Address': firstIp, Port: portsOf(id)[0]!.ID }),
    );
    await expect
      .poll(() => fromOutside(`http://${firstIp}/`), { timeout: 60_000 })
      .toContain(`hello from ${name}`);

    await page.getByRole('button', { name: 'Show password' }).click();
    const password = (await page.getByTestId('vm-password').textContent())!.trim();

    // The console: the guest's screen through Nova's noVNC proxy, read back and typed into.
    const [consoleTab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Console' }).click(),
    ]);
    await consoleTab.locator('iframe').waitFor();
    const frame = (await (await consoleTab.locator('iframe').elementHandle())!.contentFrame())!;
    await frame.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => screenText(frame, 'openstack-03-console-text'), { timeout: 30_000 })
      .toMatch(/login:/);
    await frame.locator('canvas').click();
    await typeKeys(consoleTab, 'launchpad\n');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await typeKeys(consoleTab, `${password}\n`);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await typeKeys(consoleTab, 'echo typed-$((6*7))\n');
    await expect
      .poll(async () => screenText(frame, 'openstack-04-console-typed'), { timeout: 30_000 })
      .toMatch(/typed-42/);
    await screenshot(consoleTab, 'openstack-05-console');
    await consoleTab.close();

    // Stop and start.
    await confirmAction(page, 'Stop');
    await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 120_000 });
    expect(servers().find((s) => s.ID === id)?.Status).toBe('SHUTOFF');
    await confirmAction(page, 'Start');
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 120_000 });

    // Upgrade to Extra Small: a Nova resize, confirmed; the server runs on the new flavor.
    await page.getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('radio', { name: /^Extra Small/ }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByText(/can take up to a minute/).waitFor();
    await page.getByRole('button', { name: 'Return' }).click();
    await page.getByText('Extra Small', { exact: true }).waitFor({ timeout: 180_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 180_000 });
    expect(servers().find((s) => s.ID === id)).toMatchObject({
      Status: 'ACTIVE',
      Flavor: 'lp.extraSmall',
    });
    await screenshot(page, 'openstack-06-upgraded');

    // A second interface on a new network, plugged in while stopped; then a floating IP on it.
    await page.getByRole('link', { name: 'Networks' }).click();
    await page.getByRole('button', { name: 'Create Network' }).click();
    await page.getByLabel('Network Name').fill('backend');
    await choose(page, 'Region', /Iceland/);
    await page.getByRole('radio', { name: 'Standard' }).check();
    await page.getByLabel('CIDR Block').fill('172.30.0.0/24');
    await page.getByRole('button', { name: 'Use these values' }).click();
    await page.getByRole('button', { name: 'Create Network' }).click();
    await page.getByRole('heading', { name: 'backend' }).waitFor();
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('link', { name: /Details of osvm/ }).click();
    await page.getByRole('button', { name: 'Edit VM' }).click();
    await page.getByRole('button', { name: 'Add Interface', disabled: false }).click();
    const stop = page.getByRole('dialog', { name: new RegExp(`Stop ${name}\\?`) });
    await stop.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('VM stopped successfully').waitFor({ timeout: 120_000 });
    await page
      .getByRole('button', { name: 'Add Interface', disabled: false })
      .click({ timeout: 120_000 });
    const add = page.getByRole('dialog', { name: 'Add Network Interface' });
    await choose(page, 'Network', /^backend/);
    await add.getByRole('button', { name: 'Add Interface' }).click();
    await page.getByRole('button', { name: 'Continue Working' }).click();
    await page
      .getByRole('row', { name: /backend/ })
      .filter({ hasNotText: 'Attaching' })
      .waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Allocate' }).click();
    await page.getByText('IP allocated successfully').waitFor();
    const row = page.getByRole('row', { name: /backend.*203\.0\.113\..*NAT Enabled/ });
    await row.waitFor({ timeout: 60_000 });
    const publicIp = /203\.0\.113\.\d+/.exec((await row.textContent())!)![0];
    const ports = portsOf(id);
    expect(ports.map((p) => p['Fixed IP Addresses'][0]?.ip_address).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^172\.30\.0\./)]),
    );
    expect(ports).toHaveLength(2);
    const backendPort = ports.find((p) =>
      p['Fixed IP Addresses'][0]?.ip_address.startsWith('172.30.0.'),
    )!;
    expect(floatingIps()).toContainEqual(
      expect.objectContaining({ 'Floating IP Address': publicIp, Port: backendPort.ID }),
    );
    await screenshot(page, 'openstack-07-interfaces');

    // Started again, the guest answers on the new floating IP from outside the cloud.
    await page.getByRole('link', { name: 'Virtual Machines' }).click();
    await page.getByRole('link', { name: /Details of osvm/ }).click();
    await confirmAction(page, 'Start');
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 120_000 });
    await expect
      .poll(() => fromOutside(`http://${publicIp}/`), { timeout: 90_000 })
      .toContain(`hello from ${name}`);

    // Deleted: the server, its ports and its floating IPs are gone from the cloud.
    await confirmAction(page, 'Delete');
    await page.waitForURL(/\/virtualMachines/);
    await page.getByRole('row', { name: /osvm/ }).waitFor({ state: 'detached', timeout: 120_000 });
    await expect.poll(() => servers().map((s) => s.ID), { timeout: 60_000 }).not.toContain(id);
    expect(openstack<CliPort[]>('port', 'list', '--device-id', id)).toEqual([]);
    const left = floatingIps().map((f) => f['Floating IP Address']);
    expect(left).not.toContain(firstIp);
    expect(left).not.toContain(publicIp);
    await screenshot(page, 'openstack-08-deleted');
    expect(errors).toEqual([]);
    await context.close();
  });
});
