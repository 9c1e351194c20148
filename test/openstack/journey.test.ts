import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot, shotsDir } from '../e2e/support/browser';
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
import { checkGatewayConsoleRules } from '../e2e/support/gateway-console';
import { signIn } from '../e2e/support/journey';
import { startServer, type RunningServer } from '../e2e/support/server-process';
import { fromOutside, labProvider, openstack, removeProductResources } from './support/cloud';

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

    await createVm(page, { name: 'osvm', image: 'Test image', shots: 'openstack' });
    const { fullName: name, publicIp: firstIp } = await openDetails(page, 'osvm');
    const [cloudServer] = servers().filter((s) => s.Name === name);
    expect(cloudServer).toMatchObject({ Status: 'ACTIVE', Flavor: 'lp.micro' });
    const id = cloudServer!.ID;
    // Its floating IP answers from outside the cloud, once the guest has booted (under TCG, a
    // minute or more while the machine is busy).
    expect(floatingIps()).toContainEqual(
      expect.objectContaining({ 'Floating IP Address': firstIp, Port: portsOf(id)[0]!.ID }),
    );
    await expect
      .poll(() => fromOutside(`http://${firstIp}/`), { timeout: 180_000 })
      .toContain(`hello from ${name}`);

    // The console: the guest's screen through Nova's noVNC proxy, read back and typed into; then
    // the gateway's rules with this guest: one use, the console's origin only, closed on sign-out.
    await signInAtConsole(context, page, 'openstack');
    const vmId = Number(/\/virtualMachineDetails\/(\d+)/.exec(page.url())![1]);
    await checkGatewayConsoleRules(server, ADMIN, vmId);

    await switchPower(page, 'Stop');
    expect(servers().find((s) => s.ID === id)?.Status).toBe('SHUTOFF');
    await switchPower(page, 'Start');

    // Upgrade to Extra Small: a Nova resize, confirmed; the server runs on the new flavor.
    await upgradeToExtraSmall(page);
    expect(servers().find((s) => s.ID === id)).toMatchObject({
      Status: 'ACTIVE',
      Flavor: 'lp.extraSmall',
    });
    await screenshot(page, 'openstack-06-upgraded');

    // A second interface on a new network, plugged in while stopped; then a floating IP on it.
    const publicIp = await addBackendInterface(page, { name: 'osvm', fullName: name });
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
    await gotoDetails(page, 'osvm');
    await switchPower(page, 'Start');
    await expect
      .poll(() => fromOutside(`http://${publicIp}/`), { timeout: 90_000 })
      .toContain(`hello from ${name}`);

    // Deleted: the server, its ports and its floating IPs are gone from the cloud.
    await deleteVm(page, 'osvm');
    await expect.poll(() => servers().map((s) => s.ID), { timeout: 60_000 }).not.toContain(id);
    expect(openstack<CliPort[]>('port', 'list', '--device-id', id)).toEqual([]);
    const left = floatingIps().map((f) => f['Floating IP Address']);
    expect(left).not.toContain(firstIp);
    expect(left).not.toContain(publicIp);
    await screenshot(page, 'openstack-08-deleted');
    expect(errors).toEqual([]);
    await context.close();
    // Four minutes on a quiet machine with TCG guests, past five when the machine is shared.
  }, 600_000);
});
