import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotList } from '../../src/api/contract/vm-snapshots';
import type { VmDetails } from '../../src/api/contract/vms';
import { apiSession, eventually, runningVm, type ApiCall } from './support/api-session';
import { launchChromium, screenshot } from './support/browser';
import { signIn } from './support/journey';
import { overflowOf } from './support/layout';
import { startServer, type RunningServer } from './support/server-process';

const ADMIN = { email: 'snapshots-admin@example.com', password: 'Snapshots!Journey-Passw0rd' };

/**
 * A VM's snapshots in Chromium, on a phone and on a desktop: one taken from the card's dialog,
 * shown with its size once the engine has it, restored and deleted after a confirmation each.
 */
describe("a VM's snapshots, in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let call: ApiCall;

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
    call = await apiSession(server, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const snapshotsOf = async (id: number) =>
    (await call<SnapshotList>('GET', `/virtualMachines/snapshots/list/${id}`)).snapshots;

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 412, height: 823 }],
  ] as const) {
    it(`takes, restores and deletes a snapshot on a ${label}`, async () => {
      const id = await runningVm(call, `snapshots-${label}`);
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await signIn(page, server, '/', ADMIN);
      await page.goto(`${server.url}/virtualMachineDetails/${id}`);
      await page.getByText('No snapshots yet').waitFor();

      await page.getByRole('button', { name: 'Take snapshot' }).click();
      const dialog = page.getByRole('dialog', { name: 'Take snapshot' });
      await dialog.getByLabel('Name').fill('before the upgrade');
      await screenshot(page, `snapshots-01-take-${label}`);
      await dialog.getByRole('button', { name: 'Take snapshot' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await eventually(
        async () => (await snapshotsOf(id))[0]?.status === 'available',
        60,
        'the snapshot available',
      );
      // The snapshot's own row (the VM's activity names it too).
      const row = page
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: 'Restore before the upgrade' }) });
      await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/Available/i);
      expect(await row.textContent()).toMatch(/\d+(\.\d+)? (B|KB|MB|GB)/);
      await screenshot(page, `snapshots-02-available-${label}`);
      expect((await overflowOf(page)).document).toBe(0);

      await page.getByRole('button', { name: 'Restore before the upgrade' }).click();
      const restore = page.getByRole('dialog', { name: 'Restore before the upgrade?' });
      await expect.poll(() => restore.textContent()).toContain('everything written since is lost');
      await restore.getByRole('button', { name: 'Restore' }).click();
      await eventually(
        async () =>
          (await call<VmDetails>('GET', `/virtualMachines/details/${id}`)).status === 'Running' &&
          (await snapshotsOf(id))[0]?.status === 'available',
        60,
        'restored and running',
      );

      await page.getByRole('button', { name: 'Delete before the upgrade' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete before the upgrade?' });
      await remove.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No snapshots yet').waitFor({ timeout: 30_000 });
      expect(await snapshotsOf(id)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  }
});
