import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderRejection,
  ProviderUnavailable,
  type CreateServerRequest,
  type NetworkSpec,
  type ProviderDriver,
  type ServerState,
} from '../../server/providers/driver';
import { openStackConfigSchema } from '../../server/providers/openstack/config';
import { OpenStackDriver } from '../../server/providers/openstack/driver';
import { describeDriverConformance } from '../providers/conformance';
import {
  fromOutside,
  labProvider,
  openstack,
  pidOf,
  sshFromOutside,
  sshWhenUp,
  until,
} from './support/cloud';

/**
 * The OpenStack driver against the all-in-one OpenStack of `scripts/openstack/up.sh`, run inside
 * its namespace (`ip netns exec lpos npx vitest run --project openstack`): first the contract every
 * driver is held to (test/providers/conformance.ts), then what only OpenStack shows — its guests
 * reached from outside on their floating IPs, Open vSwitch's binding, layer-2 networks, Nova's
 * reasons, a quota, a region served by two projects, a service hung.
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

const network: NetworkSpec = {
  name: `${run}-net`,
  cidr: '10.60.0.0/24',
  gatewayIp: '10.60.0.1',
  dhcp: { start: '10.60.0.100', end: '10.60.0.200' },
  dnsServers: ['10.60.0.1'],
  defaultRoute: null,
  snatIp: '203.0.113.60',
};

/**
 * An outage of the cloud's API as the driver sees it: Keystone and Nova refuse the connections of
 * this namespace at once (a reset), and take them again when the rule goes.
 */
const outageRule = (
  'OUTPUT -p tcp -d 127.0.0.1 -m multiport --dports 5000,8774 ' +
  '-m comment --comment launchpad-outage -j REJECT --reject-with tcp-reset'
).split(' ');
const outage = (change: '-I' | '-D') => {
  execFileSync('iptables', [change, ...outageRule], { stdio: 'ignore' });
};

beforeAll(() => {
  // An earlier run cut short during its outage left its rule behind.
  try {
    outage('-D');
  } catch {
    // None: the usual case.
  }
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
  authorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITest test@lp'],
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

/** The conformance suite's public IPs, and the one its server's address moves to. */
const publicIps: [string, string] = ['203.0.113.125', '203.0.113.126'];
const movedIp = '203.0.113.124';

/**
 * What only OpenStack shows, checked on the conformance suite's server as it goes: its guest
 * reached from outside on its floating IPs (through a reboot, which makes its tap again:
 * tap-replug.sh), its port bound by Open vSwitch, its load from Nova's diagnostics, a layer-2
 * interface, and Nova's reason for a resize without room.
 */
/**
 * The conformance server's keys: a generated pair's and a user's account key (Profile → SSH
 * keys), both delivered by the config drive's cloud-init.
 */
const keyDir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
const keygen = (file: string, type: string, comment: string) => {
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    '-N',
    '',
    '-C',
    comment,
    '-f',
    path.join(keyDir, file),
  ]);
  return readFileSync(path.join(keyDir, `${file}.pub`), 'utf8').trim();
};
const generatedKey = keygen('key', 'ed25519', 'launchpad-test');
const accountKey = keygen('account', 'ecdsa', 'ada@laptop');
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

const checks = {
  async running(server: ServerState) {
    // Plugged by Neutron's Open vSwitch agent, into a bridge of the userspace datapath.
    const binding = openstack<{ binding_vif_type: string; binding_vif_details: object }>(
      'port',
      'show',
      server.ports[0]!.ref.split('/')[1]!,
    );
    expect(binding.binding_vif_type).toBe('ovs');
    expect(binding.binding_vif_details).toMatchObject({ datapath_type: 'netdev' });
    const page = await until('HTTP on the floating IP', async () =>
      fromOutside(`http://${publicIps[0]}/`),
    );
    expect(page).toContain('hello from conformance');
    // The user logs in with their account key, as with the generated one.
    expect(
      sshFromOutside(
        publicIps[0],
        'launchpad',
        path.join(keyDir, 'account'),
        'echo account-key-ok',
      ),
    ).toContain('account-key-ok');
    expect(
      sshFromOutside(publicIps[0], 'launchpad', path.join(keyDir, 'key'), 'id -un').trim(),
    ).toBe('launchpad');
    expect((await driver.getServer(server.ref))?.usage.ram).toBeGreaterThan(0);

    // The address given up answers no more (once Neutron's L3 agent has dropped its NAT), and
    // the new one does.
    const primary = server.ports[0]!.ref;
    await driver.networking.releasePublicIp(primary, `${run}-release`);
    const silent = async () => !fromOutside(`http://${publicIps[0]}/`);
    await until('the address given up silent', silent, 60);
    await driver.networking.allocatePublicIp(primary, movedIp, `${run}-allocate`);
    expect(
      await until('HTTP on the new address', async () => fromOutside(`http://${movedIp}/`)),
    ).toContain('hello');
  },

  async rebooted() {
    await until('HTTP after the reboot', async () => fromOutside(`http://${movedIp}/`));
  },

  async stopped(server: ServerState) {
    await expect(driver.consoleUrl(server.ref)).rejects.toThrow(
      new ProviderRejection('The console is available only for a running server'),
    );

    // A layer-2 network: no subnet, a port without an address, bound to its MAC alone.
    const { ref: l2Ref } = await driver.networking.createNetwork('os-1', l2Network, `${run}-n2`);
    made.networks.add(l2Ref);
    const { ref: portRef } = await driver.networking.attachPort(
      server.ref,
      { networkRef: l2Ref, fixedIp: null, macAddress: '02:60:00:00:00:20' },
      `${run}-attach`,
    );
    await until(
      'plugged',
      async () => (await driver.networking.getPort(portRef))?.status === 'active',
    );
    const macs = (await driver.getServer(server.ref))?.ports.map((p) => p.macAddress);
    expect(macs).toContain('02:60:00:00:00:20');
    await driver.networking.detachPort(portRef, `${run}-detach`);
    await until('unplugged', async () => (await driver.networking.getPort(portRef)) === null);
    await driver.networking.deleteNetwork(l2Ref, `${run}-n2-delete`);
    expect(await driver.networking.getNetwork(l2Ref)).toBeNull();

    // More cores than the host has: Nova finds no room, and the server stays as it was.
    await driver.resizeServer(server.ref, 'medium', `${run}-too-big`);
    const refused = await until('the resize refused', async () => {
      const s = await driver.getServer(server.ref);
      return s?.fault ? s : null;
    });
    // Told to tenants as a lack of capacity; Nova's words are for the log.
    expect(refused.fault).toMatchObject({
      kind: 'capacity',
      engineText: expect.stringMatching(/^The cloud could not resize: .*No valid host/),
    });
    expect(refused).toMatchObject({ sizeKey: 'micro', powerState: 'shutoff', task: null });
  },
};

describeDriverConformance(
  'openstack',
  async () => ({
    driver,
    providerKey: 'lab-os',
    regionKey: 'os-1',
    imageKey: 'busybox',
    sizeKeys: ['micro', 'extraSmall'],
    network: {
      name: `${run}-conformance`,
      cidr: '10.64.0.0/24',
      gatewayIp: '10.64.0.1',
      dhcp: { start: '10.64.0.100', end: '10.64.0.200' },
      dnsServers: ['10.64.0.1'],
      defaultRoute: null,
      snatIp: '203.0.113.58',
    },
    addresses: ['10.64.0.10', '10.64.0.11'],
    // The pool's last addresses: the journey's VMs are given its first.
    publicIps,
    tick: () => new Promise((resolve) => setTimeout(resolve, 1000)),
    maxTicks: 300,
    outage: { begin: async () => outage('-I'), end: async () => outage('-D') },
    // The driver keeps nothing of its own: a call is known again by the state it leads to.
    repeats: 'by-state',
    authorizedKeys: [generatedKey, accountKey],
    checks,
  }),
  // A TCG guest's boot, a soft reboot (Nova waits for the guest to shut down first) or a cold
  // resize takes minutes on a shared machine, and the checks wait for the guest too.
  { timeoutMs: 600_000 },
);

describe('the OpenStack driver on a real OpenStack', () => {
  it('says Keystone refused a wrong secret, and offers the sizes of its configuration', async () => {
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
    // Gone from both clouds: the driver finds it in neither.
    expect(await twoClouds.networking.getNetwork(netRef)).toBeNull();
  }, 300_000);

  // One guest for snapshots and the reinstall: each boot under TCG costs minutes.
  it('snapshots a guest, restores it by a rebuild from the image, and reinstalls it', async () => {
    const { ref: netRef } = await driver.networking.createNetwork(
      'os-1',
      {
        ...network,
        name: `${run}-disk`,
        cidr: '10.64.0.0/24',
        gatewayIp: '10.64.0.1',
        dhcp: { start: '10.64.0.100', end: '10.64.0.200' },
        dnsServers: ['10.64.0.1'],
        defaultRoute: null,
        // A router to the outside, for the guest's floating IP.
        snatIp: '203.0.113.61',
      },
      `${run}-n6`,
    );
    made.networks.add(netRef);
    const address = '203.0.113.123';
    const { ref } = await driver.createServer({
      ...serverRequest(`${run}-s6`),
      name: `${run}-disk`,
      authorizedKeys: [generatedKey],
      primaryPort: { networkRef: netRef, fixedIp: '10.64.0.10', macAddress: '02:60:00:00:00:60' },
      publicIp: address,
    });
    made.servers.add(ref);
    const serverId = ref.split('/')[1]!;
    const atRest = () =>
      until(
        'the server at rest',
        async () => {
          const s = await driver.getServer(ref);
          return s && s.task === null && s.powerState === 'running' && s;
        },
        600,
      );
    const before = await atRest();
    const oldKey = path.join(keyDir, 'key');
    const disk = (command: string) =>
      `mkdir -p /mnt/d && mount /dev/vda /mnt/d && ${command}; umount /mnt/d`;
    const write = (body: string) => disk(`echo ${body} > /mnt/d/note && sync && echo written`);
    const read = 'mkdir -p /mnt/d && mount -o ro /dev/vda /mnt/d && cat /mnt/d/note; umount /mnt/d';
    const guest = (key: string, command: string) =>
      sshWhenUp(address, 'root', key, command, 300, serverId);
    expect(await guest(oldKey, write('before-snapshot'))).toContain('written');

    const { ref: snapshot } = await driver.createSnapshot(ref, `${run}-before`, `${run}-snap-1`);
    // The same token again finds the image Nova made, rather than making another.
    expect((await driver.createSnapshot(ref, `${run}-before`, `${run}-snap-1`)).ref).toBe(snapshot);
    const available = await until(
      'the image active in Glance',
      async () => {
        const s = await driver.getSnapshot(snapshot);
        return s?.status === 'available' && s;
      },
      600,
    );
    expect(available.sizeBytes).toBeGreaterThan(0);
    await atRest();

    expect(sshFromOutside(address, 'root', oldKey, write('after-snapshot'))).toContain('written');
    await driver.restoreSnapshot(ref, snapshot, `${run}-restore-1`);
    await until(
      'the rebuild under way or done',
      async () => (await driver.getServer(ref))?.task !== undefined,
    );
    await atRest();
    expect((await guest(oldKey, read)).trim()).toBe('before-snapshot');

    await driver.deleteSnapshot(snapshot, `${run}-snap-1-delete`);
    expect(
      await until('the image gone', async () => (await driver.getSnapshot(snapshot)) === null),
    ).toBe(true);

    // The reinstall: the image's disk again, on the same ports, with only the new key.
    const rebuiltKey = keygen('rebuilt', 'ed25519', 'rebuilt@lp');
    const rebuild = {
      clientToken: `${run}-rebuild-1`,
      imageKey: 'busybox',
      username: 'launchpad',
      password: 'Rebuilt#Pass1',
      authorizedKeys: [rebuiltKey],
    };
    await driver.rebuildServer(ref, rebuild);
    // The same token again (an answer lost) asks Nova for nothing more.
    await driver.rebuildServer(ref, rebuild);
    // Tags are in Nova's answer from microversion 2.26 on.
    const shown = openstack<{ tags?: string[] | string }>(
      ...['--os-compute-api-version', '2.26', 'server', 'show', serverId],
    );
    expect(String(shown.tags)).toContain(`lp-rebuild-${run}-rebuild-1`.slice(0, 60));
    const after = await atRest();
    expect(after.ports).toEqual(before.ports);

    const listing = await guest(path.join(keyDir, 'rebuilt'), disk('ls /mnt/d'));
    expect(listing).toContain('launchpad-base');
    expect(listing).not.toContain('note');
    expect(() => sshFromOutside(address, 'root', oldKey, 'id -un')).toThrow();

    await driver.deleteServer(ref, `${run}-s6-delete`);
    await until('gone', async () => (await driver.getServer(ref)) === null);
    await driver.networking.deleteNetwork(netRef, `${run}-n6-delete`);
  }, 1_800_000);

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
    // Back: the call goes on to what the test asked for (a network the cloud has not got). With
    // the usual time limit: a service just woken up may take more than the short one to answer.
    await expect(driver.createServer(serverRequest(`${run}-s4`))).rejects.toThrow(
      new ProviderRejection('The network is not in Lab OpenStack'),
    );
  });
});
