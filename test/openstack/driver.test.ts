import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ProviderRejection, type NetworkSpec } from '../../server/providers/driver';
import { openStackConfigSchema } from '../../server/providers/openstack/config';
import { OpenStackDriver } from '../../server/providers/openstack/driver';

/**
 * The OpenStack driver against the all-in-one OpenStack of `scripts/openstack/up.sh`, run inside
 * its namespace (`ip netns exec lpos npx vitest run --project openstack`).
 */
const state = process.env.OS_STATE ?? '/tmp/launchpad-openstack';
const outside = process.env.OS_OUTSIDE_NETNS ?? 'lpos-out';
const credential = JSON.parse(readFileSync(`${state}/launchpad-credential.json`, 'utf8')) as {
  id: string;
  secret: string;
};

const configFor = (secret = credential.secret) =>
  openStackConfigSchema.parse({
    providers: [
      {
        key: 'lab-os',
        name: 'Lab OpenStack',
        authUrl: 'http://127.0.0.1:5000/v3',
        auth: { applicationCredentialId: credential.id, applicationCredentialSecret: secret },
        regions: [
          {
            key: 'os-1',
            countryCode: 'IS',
            countryName: 'Iceland',
            name: 'Lab',
            city: 'Reykjavik',
            publicIpPool: '203.0.113.0/24',
            externalNetwork: 'public',
            images: [
              {
                key: 'busybox',
                name: 'Test image',
                username: 'launchpad',
                glanceImage: 'launchpad-busybox',
              },
            ],
            flavors: { micro: 'lp.micro', extraSmall: 'lp.extraSmall', small: 'lp.nothing' },
          },
        ],
      },
    ],
  });

const driver = new OpenStackDriver(configFor());
const run = `t${Date.now().toString(36)}`;

async function until<T>(
  what: string,
  read: () => Promise<T | undefined | null | false>,
  seconds = 180,
) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const fromOutside = (url: string) => {
  try {
    return execFileSync('ip', ['netns', 'exec', outside, 'curl', '-s', '-m', '2', url], {
      encoding: 'utf8',
    });
  } catch {
    return '';
  }
};

const network: NetworkSpec = {
  name: `${run}-net`,
  cidr: '10.60.0.0/24',
  gatewayIp: '10.60.0.1',
  dhcp: { start: '10.60.0.100', end: '10.60.0.200' },
  dnsServers: ['10.60.0.1'],
  defaultRoute: null,
  snatIp: '203.0.113.60',
};

/** What a test made, removed at the end even when it failed half-way. */
const made = { servers: new Set<string>(), networks: new Set<string>() };
afterAll(async () => {
  for (const ref of made.servers) await driver.deleteServer(ref, `${run}-cleanup`).catch(() => {});
  for (const ref of made.servers)
    await until('cleaned up', async () => !(await driver.getServer(ref)));
  for (const ref of made.networks)
    await driver.deleteNetwork(ref, `${run}-cleanup`).catch(() => {});
});

describe('the OpenStack driver on a real OpenStack', () => {
  it('is healthy with the application credential, and says so when the secret is wrong', async () => {
    expect((await driver.health()).ok).toBe(true);
    const wrong = await new OpenStackDriver(configFor('not-the-secret')).health();
    expect(wrong.ok).toBe(false);
    expect(wrong.detail).toMatch(/Keystone refused/);
    const catalog = await driver.catalog();
    expect(catalog.providers[0]!.offers[0]!.sizeKeys).toEqual(['micro', 'extraSmall', 'small']);
  });

  it('creates a network and a server reached on its floating IP, resizes it and deletes it all', async () => {
    const { ref: netRef } = await driver.createNetwork('os-1', network, `${run}-n1`);
    made.networks.add(netRef);
    expect((await driver.getNetwork(netRef))?.status).toBe('active');

    const request = {
      clientToken: `${run}-s1`,
      providerKey: 'lab-os',
      regionKey: 'os-1',
      imageKey: 'busybox',
      sizeKey: 'micro',
      name: `${run}-web`,
      username: 'launchpad',
      password: 'Secret#Pass1',
      publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITest test@lp',
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
    const page = await until('HTTP on the floating IP', async () =>
      fromOutside('http://203.0.113.61/'),
    );
    expect(page).toContain(`hello from ${run}-web`);

    await driver.stopServer(ref, `${run}-stop`);
    await until('shut off', async () => (await driver.getServer(ref))?.powerState === 'shutoff');
    await driver.resizeServer(ref, 'extraSmall', `${run}-resize`);
    const resized = await until('resized', async () => {
      const s = await driver.getServer(ref);
      return s?.sizeKey === 'extraSmall' && s.task === null && s;
    });
    expect(resized.powerState).toBe('shutoff');
    await driver.startServer(ref, `${run}-start`);
    await until('running again', async () => {
      const s = await driver.getServer(ref);
      return s?.powerState === 'running' && s.task === null;
    });

    await driver.deleteServer(ref, `${run}-delete`);
    await until('gone', async () => (await driver.getServer(ref)) === null);
    expect(fromOutside('http://203.0.113.61/')).toBe('');
    await driver.deleteNetwork(netRef, `${run}-ndelete`);
    expect(await driver.getNetwork(netRef)).toBeNull();
  }, 600_000);

  it('refuses a size whose flavor the cloud lacks, with the reason', async () => {
    await expect(
      driver.createServer({
        clientToken: `${run}-s2`,
        providerKey: 'lab-os',
        regionKey: 'os-1',
        imageKey: 'busybox',
        sizeKey: 'small',
        name: `${run}-nope`,
        username: 'launchpad',
        password: 'Secret#Pass1',
        publicKey: 'ssh-ed25519 AAAA test@lp',
        primaryPort: { networkRef: 'os-1/none', fixedIp: null, macAddress: '02:60:00:00:00:11' },
        publicIp: null,
      }),
    ).rejects.toThrow(new ProviderRejection('The cloud has no flavor lp.nothing'));
  });
});
