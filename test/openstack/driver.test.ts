import { execFileSync, spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderRejection,
  ProviderUnavailable,
  type CreateServerRequest,
  type NetworkSpec,
  type ProviderDriver,
} from '../../server/providers/driver';
import { openStackConfigSchema } from '../../server/providers/openstack/config';
import { OpenStackDriver } from '../../server/providers/openstack/driver';
import { fromOutside, labProvider, openstack, pidFileOf, pidOf, state, until } from './cloud';

/**
 * The OpenStack driver against the all-in-one OpenStack of `scripts/openstack/up.sh`, run inside
 * its namespace (`ip netns exec lpos npx vitest run --project openstack`).
 */
const FLAVORS = {
  micro: 'lp.micro',
  extraSmall: 'lp.extraSmall',
  small: 'lp.nothing',
  medium: 'lp.too-big',
};

/** The first cloud of the tests: project launchpad, with all of the sizes above. */
const labOs = (secret?: string) =>
  labProvider({
    key: 'lab-os',
    name: 'Lab OpenStack',
    project: 'launchpad',
    flavors: FLAVORS,
    secret,
  });

const configFor = (secret?: string) => openStackConfigSchema.parse({ providers: [labOs(secret)] });

const options = { consoleUrl: (ref: string) => `console/${ref}` };
// Through the interface the product uses: its methods take the client tokens the product sends.
const driver: ProviderDriver = new OpenStackDriver(configFor(), options);
/** The region served by two clouds (two projects of the lab cloud). */
const twoClouds: ProviderDriver = new OpenStackDriver(
  openStackConfigSchema.parse({
    providers: [
      labOs(),
      labProvider({
        key: 'lab-os-b',
        name: 'Lab OpenStack B',
        project: 'launchpad-b',
        flavors: { micro: 'lp.micro' },
      }),
    ],
  }),
  options,
);
const run = `t${Date.now().toString(36)}`;

/** The first bytes of a console stream: the VNC server's protocol version. */
function greeting(stream: Duplex): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no RFB greeting in 20 s')), 20_000);
    stream.once('data', (data: Buffer) => {
      clearTimeout(timer);
      stream.destroy();
      resolve(data.toString('latin1'));
    });
    stream.once('error', reject);
  });
}

const network: NetworkSpec = {
  name: `${run}-net`,
  cidr: '10.60.0.0/24',
  gatewayIp: '10.60.0.1',
  dhcp: { start: '10.60.0.100', end: '10.60.0.200' },
  dnsServers: ['10.60.0.1'],
  defaultRoute: null,
  snatIp: '203.0.113.60',
};

beforeAll(() => {
  try {
    execFileSync('openstack', ['flavor', 'show', 'lp.too-big'], { stdio: 'ignore' });
  } catch {
    execFileSync(
      'openstack',
      ['flavor', 'create', '--vcpus', '64', '--ram', '512', '--disk', '400', 'lp.too-big'],
      { stdio: 'ignore' },
    );
  }
});

/** What a test made, removed at the end even when it failed half-way. */
const made = { servers: new Set<string>(), networks: new Set<string>() };
afterAll(async () => {
  // The two-cloud driver knows every provider of the tests.
  for (const ref of made.servers)
    await twoClouds.deleteServer(ref, `${run}-cleanup`).catch(() => {});
  for (const ref of made.servers)
    await until('cleaned up', async () => !(await twoClouds.getServer(ref)));
  for (const ref of made.networks)
    await twoClouds.networking.deleteNetwork(ref, `${run}-cleanup`).catch(() => {});
});

const serverRequest = (clientToken: string): CreateServerRequest => ({
  clientToken,
  providerKey: 'lab-os',
  regionKey: 'os-1',
  imageKey: 'busybox',
  sizeKey: 'micro',
  name: `${run}-web`,
  username: 'launchpad',
  password: 'Secret#Pass1',
  publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITest test@lp',
  primaryPort: { networkRef: 'os-1/none', fixedIp: null, macAddress: '02:60:00:00:00:11' },
  publicIp: null,
});

/** A custom layer-2 network: no addresses, no gateway. */
const l2Network: NetworkSpec = {
  name: `${run}-l2`,
  cidr: '10.61.0.0/24',
  gatewayIp: null,
  dhcp: null,
  dnsServers: [],
  defaultRoute: null,
  snatIp: null,
};

describe('the OpenStack driver on a real OpenStack', () => {
  it('is healthy with the application credential, and says so when the secret is wrong', async () => {
    expect((await driver.health()).ok).toBe(true);
    const wrong = await new OpenStackDriver(configFor('not-the-secret'), options).health();
    expect(wrong.ok).toBe(false);
    expect(wrong.detail).toMatch(/Keystone refused/);
    const catalog = await driver.catalog();
    expect(catalog.providers[0]!.offers[0]!.sizeKeys).toEqual([
      'micro',
      'extraSmall',
      'small',
      'medium',
    ]);
  });

  it("refuses a server over the project's quota, with Nova's reason", async () => {
    // Addresses by DHCP, no router: Nova boots a server only on a port with an address.
    const isolated = {
      ...network,
      name: `${run}-iso`,
      cidr: '10.62.0.0/24',
      gatewayIp: null,
      snatIp: null,
    };
    isolated.dhcp = { start: '10.62.0.100', end: '10.62.0.200' };
    const { ref: netRef } = await driver.networking.createNetwork('os-1', isolated, `${run}-n3`);
    made.networks.add(netRef);
    execFileSync('openstack', ['quota', 'set', '--instances', '0', 'launchpad']);
    try {
      await expect(
        driver.createServer({
          ...serverRequest(`${run}-s3`),
          primaryPort: {
            networkRef: netRef,
            fixedIp: '10.62.0.30',
            macAddress: '02:60:00:00:00:30',
          },
        }),
      ).rejects.toThrow(/Quota exceeded for instances/);
    } finally {
      execFileSync('openstack', ['quota', 'set', '--instances', '100', 'launchpad']);
    }
    // Nothing of the refused server holds the network.
    await driver.networking.deleteNetwork(netRef, `${run}-n3-delete`);
    expect(await driver.networking.getNetwork(netRef)).toBeNull();
  });

  it('creates a network and a server reached on its floating IP, resizes it and deletes it all', async () => {
    const { ref: netRef } = await driver.networking.createNetwork('os-1', network, `${run}-n1`);
    made.networks.add(netRef);
    expect((await driver.networking.getNetwork(netRef))?.status).toBe('active');

    const request = {
      ...serverRequest(`${run}-s1`),
      primaryPort: { networkRef: netRef, fixedIp: '10.60.0.10', macAddress: '02:60:00:00:00:10' },
      publicIp: '203.0.113.61',
    };
    const { ref } = await driver.createServer(request);
    made.servers.add(ref);
    expect((await driver.createServer(request)).ref).toBe(ref);

    const running = await until('running', async () => {
      const s = await driver.getServer(ref);
      return s?.powerState === 'running' && s.task === null && s;
    });
    expect(running.sizeKey).toBe('micro');
    expect(running.ports.map((p) => p.macAddress)).toEqual(['02:60:00:00:00:10']);
    // Plugged by Neutron's Open vSwitch agent, into a bridge of the userspace datapath.
    const binding = openstack<{ binding_vif_type: string; binding_vif_details: object }>(
      'port',
      'show',
      running.ports[0]!.ref.split('/')[1]!,
    );
    expect(binding.binding_vif_type).toBe('ovs');
    expect(binding.binding_vif_details).toMatchObject({ datapath_type: 'netdev' });
    const page = await until('HTTP on the floating IP', async () =>
      fromOutside('http://203.0.113.61/'),
    );
    expect(page).toContain(`hello from ${run}-web`);
    const busy = await driver.getServer(ref);
    expect(busy?.usage.ram).toBeGreaterThan(0);
    expect(busy?.usage.cpu).toBeGreaterThanOrEqual(0);

    // The remote console: the product's page, and the guest's screen through Nova's noVNC proxy.
    expect(await driver.consoleUrl(ref)).toBe(`console/${ref}`);
    expect(await greeting(await driver.openConsole!(ref))).toMatch(/^RFB 003\.00\d\n$/);

    await driver.rebootServer(ref, `${run}-reboot`);
    await until('rebooted', async () => {
      const s = await driver.getServer(ref);
      return s?.powerState === 'running' && s.task === null;
    });

    const primary = running.ports[0]!.ref;
    expect((await driver.networking.getPort(primary))?.publicIp).toBe('203.0.113.61');
    await driver.networking.releasePublicIp(primary, `${run}-release`);
    expect((await driver.networking.getPort(primary))?.publicIp).toBeNull();
    expect(fromOutside('http://203.0.113.61/')).toBe('');
    await driver.networking.allocatePublicIp(primary, '203.0.113.62', `${run}-allocate`);
    await driver.networking.allocatePublicIp(primary, '203.0.113.62', `${run}-allocate`);
    expect((await driver.networking.getPort(primary))?.publicIp).toBe('203.0.113.62');
    expect(
      await until('HTTP on the new address', async () => fromOutside('http://203.0.113.62/')),
    ).toContain('hello');

    await driver.stopServer(ref, `${run}-stop`);
    await until('shut off', async () => (await driver.getServer(ref))?.powerState === 'shutoff');
    await expect(driver.consoleUrl(ref)).rejects.toThrow(
      new ProviderRejection('The console is available only for a running server'),
    );

    const { ref: l2Ref } = await driver.networking.createNetwork('os-1', l2Network, `${run}-n2`);
    made.networks.add(l2Ref);
    const { ref: portRef } = await driver.networking.attachPort(
      ref,
      { networkRef: l2Ref, fixedIp: null, macAddress: '02:60:00:00:00:20' },
      `${run}-attach`,
    );
    await until(
      'plugged',
      async () => (await driver.networking.getPort(portRef))?.status === 'active',
    );
    expect((await driver.networking.getPort(portRef))?.serverRef).toBe(ref);
    expect((await driver.getServer(ref))?.ports.map((p) => p.macAddress).sort()).toEqual([
      '02:60:00:00:00:10',
      '02:60:00:00:00:20',
    ]);
    await driver.networking.detachPort(portRef, `${run}-detach`);
    await until('unplugged', async () => (await driver.networking.getPort(portRef)) === null);
    await driver.resizeServer(ref, 'extraSmall', `${run}-resize`);
    const resized = await until('resized', async () => {
      const s = await driver.getServer(ref);
      return s?.sizeKey === 'extraSmall' && s.task === null && s;
    });
    expect(resized.powerState).toBe('shutoff');
    expect(resized.fault).toBeNull();

    // More cores than the host has: Nova finds no room, and the server stays as it was.
    await driver.resizeServer(ref, 'medium', `${run}-too-big`);
    const refused = await until('the resize refused', async () => {
      const s = await driver.getServer(ref);
      return s?.fault ? s : null;
    });
    // Told to tenants as a lack of capacity; Nova's words are for the log.
    expect(refused.fault).toMatchObject({
      kind: 'capacity',
      engineText: expect.stringMatching(/^The cloud could not resize: .*No valid host/),
    });
    expect(refused).toMatchObject({ sizeKey: 'extraSmall', powerState: 'shutoff', task: null });
    await driver.startServer(ref, `${run}-start`);
    await until('running again', async () => {
      const s = await driver.getServer(ref);
      return s?.powerState === 'running' && s.task === null;
    });

    await driver.deleteServer(ref, `${run}-delete`);
    await until('gone', async () => (await driver.getServer(ref)) === null);
    expect(fromOutside('http://203.0.113.62/')).toBe('');
    for (const net of [netRef, l2Ref]) {
      await driver.networking.deleteNetwork(net, `${run}-ndelete`);
      expect(await driver.networking.getNetwork(net)).toBeNull();
    }
  }, 600_000);

  it('serves one region from two clouds: a network on each, a server on the one asked for', async () => {
    const catalog = await twoClouds.catalog();
    expect(catalog.regions.map((r) => r.key)).toEqual(['os-1']);
    expect(catalog.providers.map((p) => [p.key, p.offers[0]!.sizeKeys])).toEqual([
      ['lab-os', ['micro', 'extraSmall', 'small', 'medium']],
      ['lab-os-b', ['micro']],
    ]);

    // Routed without SNAT: the router's outside address is the cloud's pick.
    const spec = { ...network, name: `${run}-two`, cidr: '10.63.0.0/24', snatIp: null };
    Object.assign(spec, { gatewayIp: '10.63.0.1', dhcp: null, dnsServers: [] });
    const { ref: netRef } = await twoClouds.networking.createNetwork('os-1', spec, `${run}-n4`);
    made.networks.add(netRef);
    const token = netRef.split('/')[1]!;
    const inProject = (project: string) =>
      openstack<{ ID: string }[]>(
        'network',
        'list',
        '--project',
        project,
        '--tags',
        `lp-net-${token}`,
      );
    const [inA, inB] = [inProject('launchpad'), inProject('launchpad-b')];
    expect([inA.length, inB.length]).toEqual([1, 1]);
    const routers = openstack<{ ID: string }[]>('router', 'list', '--tags', `lp-net-${token}`);
    expect(routers).toHaveLength(2);
    const gateway = openstack<{ external_gateway_info: { enable_snat: boolean } }>(
      'router',
      'show',
      routers[0]!.ID,
    ).external_gateway_info;
    expect(gateway.enable_snat).toBe(false);

    const { ref } = await twoClouds.createServer({
      ...serverRequest(`${run}-s5`),
      providerKey: 'lab-os-b',
      primaryPort: { networkRef: netRef, fixedIp: '10.63.0.10', macAddress: '02:60:00:00:00:50' },
    });
    made.servers.add(ref);
    expect(ref).toMatch(/^lab-os-b\//);
    const running = await until('running on the second cloud', async () => {
      const s = await twoClouds.getServer(ref);
      return s?.powerState === 'running' && s.task === null && s;
    });
    const port = openstack<{ network_id: string; project_id: string }>(
      'port',
      'show',
      running.ports[0]!.ref.split('/')[1]!,
    );
    expect(port.network_id).toBe(inB[0]!.ID);

    await twoClouds.deleteServer(ref, `${run}-s5-delete`);
    await until('gone', async () => (await twoClouds.getServer(ref)) === null);
    await twoClouds.networking.deleteNetwork(netRef, `${run}-n4-delete`);
    expect(await twoClouds.networking.getNetwork(netRef)).toBeNull();
    expect([inProject('launchpad'), inProject('launchpad-b')]).toEqual([[], []]);
  }, 300_000);

  it('refuses a size whose flavor the cloud lacks, with the reason', async () => {
    await expect(
      driver.createServer({ ...serverRequest(`${run}-s2`), sizeKey: 'small' }),
    ).rejects.toThrow(new ProviderRejection('The cloud has no flavor lp.nothing'));
  });

  it('says the cloud is unavailable while its image service hangs, and works once it is back', async () => {
    const quick = new OpenStackDriver({ ...configFor(), requestTimeoutSeconds: 2 }, options);
    const glance = String(pidOf('glance'));
    const workers = execFileSync('pgrep', ['-P', glance], { encoding: 'utf8' })
      .split(/\s+/)
      .filter(Boolean);
    const all = [glance, ...workers];
    execFileSync('kill', ['-STOP', ...all]);
    try {
      const failure = quick.createServer(serverRequest(`${run}-s4`));
      await expect(failure).rejects.toBeInstanceOf(ProviderUnavailable);
      await expect(failure).rejects.toThrow(/Could not create the server: .*did not answer/);
    } finally {
      execFileSync('kill', ['-CONT', ...all]);
    }
    await expect(quick.createServer(serverRequest(`${run}-s4`))).rejects.toThrow(
      new ProviderRejection('The network is not in Lab OpenStack'),
    );
  });

  it('says the cloud is unavailable while its network service is stopped, and works once it is back', async () => {
    const pid = pidOf('neutron-server');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    process.kill(pid, 'SIGTERM');
    try {
      await until('Neutron stopped', async () => !alive(), 60);
      const failure = driver.networking.createNetwork('os-1', l2Network, `${run}-n5`);
      await expect(failure).rejects.toBeInstanceOf(ProviderUnavailable);
      await expect(failure).rejects.toThrow(
        /^Could not create the network: 127\.0\.0\.1:9696 did not answer/,
      );
    } finally {
      // Started again as up.sh starts it: detached, its output in its log, its pid kept.
      const log = openSync(`${state}/log/neutron-server.out`, 'a');
      const server = spawn('neutron-server', ['--config-file', `${state}/neutron/neutron.conf`], {
        detached: true,
        stdio: ['ignore', log, log],
      });
      server.unref();
      writeFileSync(pidFileOf('neutron-server'), String(server.pid));
      await until(
        'Neutron answering',
        () =>
          fetch('http://127.0.0.1:9696/').then(
            () => true,
            () => false,
          ),
        120,
      );
    }
    const { ref } = await driver.networking.createNetwork('os-1', l2Network, `${run}-n5`);
    made.networks.add(ref);
    expect((await driver.networking.getNetwork(ref))?.status).toBe('active');
    await driver.networking.deleteNetwork(ref, `${run}-n5-delete`);
    expect(await driver.networking.getNetwork(ref)).toBeNull();
  });
});
