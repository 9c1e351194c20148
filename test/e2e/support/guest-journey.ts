import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser';
import { screenText, typeKeys } from './guest-screen';
import { choose } from './journey';

/**
 * The steps of a real guest's journey through the console, shared by the engines' journeys
 * (libvirt, OpenStack). Their waits are bounds for the slowest engine: a step ends as soon as the
 * console shows its outcome.
 */

const PUBLIC_IP = /203\.0\.113\.\d+/;

/** Clicks a VM action and confirms it in its dialog. */
export async function confirmAction(page: Page, action: string) {
  await page.getByRole('button', { name: action, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: action }).click();
}

/** Stop or Start, confirmed, until the VM's other power button shows. */
export async function switchPower(page: Page, action: 'Stop' | 'Start') {
  await confirmAction(page, action);
  await page
    .getByRole('button', { name: action === 'Stop' ? 'Start' : 'Stop', exact: true })
    .waitFor({ timeout: 120_000 });
}

/** One Micro VM of the image in the Reykjavik region, created from the form, until Running. */
export async function createVm(page: Page, vm: { name: string; image: string; shots: string }) {
  await page.getByRole('link', { name: 'Virtual Machines', exact: true }).click();
  await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
  await page.getByLabel('Name', { exact: true }).fill(vm.name);
  await choose(page, 'Country', 'Iceland');
  await choose(page, 'Region', /Reykjavik/);
  await choose(page, 'Image', vm.image);
  await choose(page, 'Size', /^Micro/);
  await choose(page, 'Number of Instances', /^1$/);
  await screenshot(page, `${vm.shots}-01-create`);
  await page.getByRole('button', { name: 'Create Virtual Machine' }).click();
  await page.waitForURL(/\/virtualMachines/);
  await page
    .getByRole('row', { name: new RegExp(`${vm.name}.*Running`) })
    .waitFor({ timeout: 180_000 });
  await screenshot(page, `${vm.shots}-02-running`);
}

/** The VM's details page, through the list. */
export async function gotoDetails(page: Page, name: string) {
  await page.getByRole('link', { name: 'Virtual Machines', exact: true }).click();
  await page.getByRole('link', { name: new RegExp(`Details of ${name}`) }).click();
}

/** The VM's details page; answers its full name and its primary interface's public IP. */
export async function openDetails(page: Page, name: string) {
  await gotoDetails(page, name);
  const heading = page.getByRole('heading', { name: new RegExp(`^${name}`) });
  const primary = page.getByRole('row', { name: PUBLIC_IP });
  await primary.waitFor();
  return {
    fullName: (await heading.textContent())!.trim(),
    publicIp: PUBLIC_IP.exec((await primary.textContent())!)![0],
  };
}

/**
 * The console tab: the guest's screen read off noVNC's canvas (OCR), then a login at its prompt
 * with the VM's user and password, and a command typed whose answer shows on the screen.
 */
export async function signInAtConsole(context: BrowserContext, page: Page, shots: string) {
  await page.getByRole('button', { name: 'Show password' }).click();
  const password = (await page.getByTestId('vm-password').textContent())!.trim();
  const [consoleTab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'Console' }).click(),
  ]);
  await consoleTab.locator('iframe').waitFor();
  const frame = (await (await consoleTab.locator('iframe').elementHandle())!.contentFrame())!;
  await frame.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
  await expect
    .poll(async () => screenText(frame, `${shots}-03-console-text`), { timeout: 30_000 })
    .toMatch(/login:/);
  await frame.locator('canvas').click();
  await typeKeys(consoleTab, 'launchpad\n');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await typeKeys(consoleTab, `${password}\n`);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await typeKeys(consoleTab, 'echo typed-$((6*7))\n');
  await expect
    .poll(async () => screenText(frame, `${shots}-04-console-typed`), { timeout: 30_000 })
    .toMatch(/typed-42/);
  await screenshot(consoleTab, `${shots}-05-console`);
  await consoleTab.close();
}

/** Upgrade to Extra Small, until the details show the size and the VM runs again. */
export async function upgradeToExtraSmall(page: Page) {
  await page.getByRole('button', { name: 'Upgrade' }).click();
  await page.getByRole('radio', { name: /^Extra Small/ }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
  await page.getByText(/can take up to a minute/).waitFor();
  await page.getByRole('button', { name: 'Return' }).click();
  // A cold resize under TCG: minutes when the machine is shared.
  await page.getByText('Extra Small', { exact: true }).waitFor({ timeout: 300_000 });
  await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ timeout: 180_000 });
}

/**
 * A second interface on a new network `backend` (172.30.0.0/24), plugged in after the VM is
 * stopped from the edit form's prompt, then a public IP on it; answers that IP.
 */
export async function addBackendInterface(page: Page, vm: { name: string; fullName: string }) {
  await page.getByRole('link', { name: 'Networks', exact: true }).click();
  await page.getByRole('button', { name: 'Create Network' }).click();
  await page.getByLabel('Network Name').fill('backend');
  await choose(page, 'Region', /Iceland/);
  await page.getByRole('radio', { name: 'Standard' }).check();
  await page.getByLabel('CIDR Block').fill('172.30.0.0/24');
  await page.getByRole('button', { name: 'Use these values' }).click();
  await page.getByRole('button', { name: 'Create Network' }).click();
  await page.getByRole('heading', { name: 'backend' }).waitFor();
  await gotoDetails(page, vm.name);
  await page.getByRole('button', { name: 'Edit VM' }).click();
  await page.getByRole('button', { name: 'Add Interface', disabled: false }).click();
  const stop = page.getByRole('dialog', { name: new RegExp(`Stop ${vm.fullName}\\?`) });
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
  return PUBLIC_IP.exec((await row.textContent())!)![0];
}

/**
 * Deleted from its details page's Danger zone, its name typed as the dialog asks, until the list
 * no longer shows it.
 */
export async function deleteVm(page: Page, name: string) {
  await page
    .getByRole('region', { name: 'Danger zone' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const dialog = page.getByRole('dialog');
  const field = dialog.getByRole('textbox', { name: /^Type .+ to confirm$/ });
  const label = await dialog.getByText(/^Type .+ to confirm$/).textContent();
  await field.fill(/^Type (.+) to confirm$/.exec(label!.trim())![1]!);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(/\/virtualMachines/);
  await page
    .getByRole('row', { name: new RegExp(name) })
    .waitFor({ state: 'detached', timeout: 120_000 });
}
