import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupItem, VmDetails } from '../../src/api/contract/vms';
import { apiSession, eventually } from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { choose, signIn } from './support/journey';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'net-admin@example.com', password: 'Net!Journey-Passw0rd' };

/** Fills the network form up to its addressing; a standard one takes the CIDR helper's values. */
async function createNetwork(
  page: Page,
  input: { name: string; type: 'Standard' | 'Custom'; cidr: string; shot: string },
) {
  await page.getByRole('link', { name: 'Networks', exact: true }).click();
  await page.getByRole('button', { name: 'Create Network' }).click();
  await page.getByRole('heading', { name: 'Create Network' }).waitFor();
  await page.getByLabel('Network Name').fill(input.name);
  await choose(page, 'Region', 'United States - Los Angeles');
  await page.getByLabel('Description').fill(`The ${input.name} of the journey`);
  await page.getByRole('radio', { name: input.type }).check();
  await page.getByLabel('CIDR Block').fill(input.cidr);
  if (input.type === 'Standard') {
    await page.getByRole('button', { name: 'Use these values' }).click();
    expect(await page.getByLabel('Default Route').inputValue()).toMatch(/\.1$/);
  }
  await screenshot(page, input.shot);
  await page.getByRole('button', { name: 'Create Network' }).click();
  await page.getByRole('heading', { name: input.name }).waitFor();
}

/**
 * The networks journey in Chromium: a standard and a custom network, both attached to a VM (which
 * must be stopped first), a public IP allocated and released, the interfaces removed, and the
 * networks deleted.
 */
describe('networks and interfaces, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        SIM_PROVISION_SECONDS: '2',
        SIM_ACTION_SECONDS: '2',
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('standard + custom network -> attach both -> public IP -> release -> detach -> delete', async () => {
    // A VM to work with (the VM journey covers ordering through the console).
    const api = await apiSession(server, ADMIN);
    const [us] = (await api<LookupItem[]>('GET', '/virtualMachines/listCountries')).filter(
      (c) => c.name === 'United States',
    );
    const [la] = await api<LookupItem[]>('GET', `/virtualMachines/listRegions/${us!.id}`);
    const images = await api<LookupItem[]>('GET', `/virtualMachines/listImages/${la!.id}`);
    const ubuntu = images.find((i) => i.name === 'Ubuntu 24.04 LTS')!;
    const [provider] = await api<LookupItem[]>(
      'GET',
      `/virtualMachines/listProviders/${la!.id}?imageId=${ubuntu.id}&configurationId=3`,
    );
    const {
      ids: [vmId],
    } = await api<{ ids: number[] }>('POST', '/virtualMachines/create', {
      regionId: la!.id,
      imageId: ubuntu.id,
      configurationId: 3,
      providerId: provider!.id,
      name: 'netted',
      numberOfInstances: 1,
      teamId: null,
      allocatePublicIp: false,
    });

    const errors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page, server, '/', ADMIN);

    await createNetwork(page, {
      name: 'app-net',
      type: 'Standard',
      cidr: '10.20.0.0/24',
      shot: 'net-01-standard',
    });
    await screenshot(page, 'net-02-details');
    await createNetwork(page, {
      name: 'storage-l2',
      type: 'Custom',
      cidr: '10.30.0.0/24',
      shot: 'net-03-custom',
    });
    await page.getByRole('link', { name: 'Networks', exact: true }).click();
    await page.getByRole('row', { name: /storage-l2/ }).waitFor();
    await screenshot(page, 'net-04-list');

    // The VM's edit page: interfaces change only while it is stopped, which the editor offers.
    await page.goto(`${server.url}/virtualMachineDetails/${vmId}/edit`);
    await page.getByRole('heading', { name: /netted/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add Interface', disabled: false }).click();
    const stop = page.getByRole('dialog', { name: 'Stop netted?' });
    await stop.waitFor();
    await stop.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('VM stopped successfully').waitFor();
    const status = async () =>
      (await api<VmDetails>('GET', `/virtualMachines/details/${vmId}`)).status;
    await eventually(async () => (await status()) === 'Stopped', 30, 'the VM stopped');

    for (const network of ['app-net', 'storage-l2']) {
      await page.getByRole('button', { name: 'Add Interface', disabled: false }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Network Interface' });
      await dialog.waitFor();
      await choose(page, 'Network', new RegExp(`^${network}`));
      await dialog.getByRole('button', { name: 'Add Interface' }).click();
      await page.getByRole('button', { name: 'Continue Working' }).click();
      // Attaching until the provider has plugged it in; an active interface wears no badge.
      await page
        .getByRole('row', { name: new RegExp(network) })
        .filter({ hasNotText: 'Attaching' })
        .waitFor({ timeout: 20_000 });
    }
    await screenshot(page, 'net-05-attached');

    // A public IP on the standard network's interface, then released.
    await page.getByRole('button', { name: 'Allocate Public IP to vmnic 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Allocate' }).click();
    await page.getByText('IP allocated successfully').waitFor();
    await page.getByRole('row', { name: /app-net.*198\.18\..*NAT Enabled/ }).waitFor();
    await screenshot(page, 'net-06-public-ip');
    // Every badge of the interface list shows its whole word (Primary, NAT Enabled), not an
    // ellipsis, however wide the table's other columns.
    type Box = { scrollWidth: number; clientWidth: number; textContent: string };
    const cut = await page
      .locator('table .mantine-Badge-label')
      .evaluateAll((labels) =>
        (labels as unknown as Box[])
          .filter((l) => l.scrollWidth > l.clientWidth)
          .map((l) => l.textContent),
      );
    expect(cut).toEqual([]);
    // No public IP on the layer-2 network.
    expect(await page.getByRole('button', { name: 'Allocate Public IP to vmnic 3' }).count()).toBe(
      0,
    );
    await page.getByRole('button', { name: 'Release Public IP of vmnic 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Release' }).click();
    await page.getByText('IP deallocated successfully').waitFor();
    await page.getByRole('row', { name: /app-net.*Not Configured/ }).waitFor();

    // Detach both.
    for (const vmnic of [3, 2]) {
      await page.getByRole('button', { name: `Remove vmnic ${vmnic}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await page.getByText('Network interface removed successfully').first().waitFor();
      await page
        .getByRole('button', { name: `Remove vmnic ${vmnic}` })
        .waitFor({ state: 'detached', timeout: 20_000 });
    }
    expect(await page.getByRole('button', { name: 'Remove vmnic 1' }).count()).toBe(0);
    await screenshot(page, 'net-07-detached');

    // Delete both networks.
    for (const network of ['app-net', 'storage-l2']) {
      await page.getByRole('link', { name: 'Networks', exact: true }).click();
      await page.getByRole('link', { name: `Details of ${network}` }).click();
      await page.getByRole('heading', { name: network }).waitFor();
      await page
        .getByRole('region', { name: 'Danger zone' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByRole('dialog').getByRole('textbox').fill(network);
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Network is being deleted').first().waitFor();
      await page.waitForURL(/\/networks$/);
      await page.getByRole('row', { name: new RegExp(network) }).waitFor({ state: 'detached' });
    }
    await page.getByRole('row', { name: /Default network/ }).waitFor();
    await screenshot(page, 'net-08-deleted');

    expect(errors).toEqual([]);
    await context.close();
  });
});
