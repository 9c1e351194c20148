import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labProviderConfig, readBuiltImage } from '../../scripts/libvirt/lab-config';
import { outside, startLabHost, stopLabHost, type LabHost } from '../../scripts/libvirt/lab-host';
import { launchChromium, screenshot } from '../e2e/support/browser';
import {
  addBackendInterface,
  createVm,
  deleteVm,
  gotoDetails,
  openDetails,
  signInAtConsole,
  switchPower,
  upgradeToExtraSmall,
} from '../e2e/support/guest-journey';
import { signIn } from '../e2e/support/journey';
import { startServer, type RunningServer } from '../e2e/support/server-process';
import { inBox, markers } from './support/lab';

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

    await createVm(page, { name: 'lab', image: 'Launchpad test image', shots: 'libvirt' });
    const [domain] = domains();
    const { fullName: name, publicIp: firstIp } = await openDetails(page, 'lab');
    // Its public IP answers from outside its network.
    await expect
      .poll(() => outside(lab, ['curl', '-sS', '-m', '3', `http://${firstIp}/`]), {
        timeout: 60_000,
      })
      .toContain('hello from lab');

    // The console: noVNC in the console tab's frame, connected to the guest's screen.
    await signInAtConsole(context, page, 'libvirt');

    await switchPower(page, 'Stop');
    expect(markers(serial(domain!), 'POWEROFF').length).toBe(1);
    await switchPower(page, 'Start');

    // Upgrade to Extra Small: the guest comes back with four vCPUs and 120 GB of disk.
    await upgradeToExtraSmall(page);
    await expect
      .poll(() => markers(serial(domain!), 'HW').at(-1), { timeout: 60_000 })
      .toMatch(/cpus=4 .*disk_bytes=128849018880/);
    await screenshot(page, 'libvirt-06-upgraded');

    // A second interface on a new network, plugged in while stopped; then a public IP on it.
    const publicIp = await addBackendInterface(page, { name: 'lab', fullName: name });
    await screenshot(page, 'libvirt-07-interfaces');

    // Started again, the guest answers on the new public IP from outside its network.
    await gotoDetails(page, 'lab');
    await switchPower(page, 'Start');
    await expect
      .poll(() => outside(lab, ['curl', '-sS', '-m', '3', `http://${publicIp}/`]), {
        timeout: 60_000,
      })
      .toContain(`hello from ${name}`);

    // Deleted: nothing of it is left on the host.
    await deleteVm(page, 'lab');
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
