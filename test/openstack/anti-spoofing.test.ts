import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CreateServerRequest,
  NetworkSpec,
  ProviderDriver,
} from '../../server/providers/driver';
import { openStackConfigSchema } from '../../server/providers/openstack/config';
import { OpenStackDriver } from '../../server/providers/openstack/driver';
import { fromOutside, labProvider, openstack, until } from './support/cloud';

/**
 * A guest that an attacker owns, beside another guest on a company network of an OpenStack
 * region: its ARP answers and IP packets for the other's address are dropped by Neutron's port
 * security. Run inside the lab cloud's namespace (`npm run test:openstack`).
 */

const outsideNs = process.env.OS_OUTSIDE_NETNS ?? 'lpos-out';
const run = `s${Date.now().toString(36)}`;
// Through the interface the product uses: its methods take the client tokens the product sends.
const driver: ProviderDriver = new OpenStackDriver(
  openStackConfigSchema.parse({
    providers: [
      labProvider({
        key: 'lab-os',
        name: 'Lab OpenStack',
        project: 'launchpad',
        flavors: { micro: 'lp.micro' },
      }),
    ],
  }),
  { consoleUrl: (ref: string) => `console/${ref}` },
);

const network: NetworkSpec = {
  name: `${run}-net`,
  cidr: '10.66.0.0/24',
  gatewayIp: '10.66.0.1',
  dhcp: { start: '10.66.0.100', end: '10.66.0.200' },
  dnsServers: ['10.66.0.1'],
  defaultRoute: null,
  snatIp: '203.0.113.53',
};

const guests = {
  a: { name: `${run}-a`, ip: '10.66.0.10', publicIp: '203.0.113.54', mac: '02:66:00:00:00:10' },
  b: { name: `${run}-b`, ip: '10.66.0.11', publicIp: '203.0.113.55', mac: '02:66:00:00:00:11' },
};

let keyDir: string;
let netRef: string | undefined;
const servers: string[] = [];

const outside = (command: string[], input?: string) =>
  execFileSync('ip', ['netns', 'exec', outsideNs, ...command], {
    input,
    timeout: 60_000,
  }).toString();

/** A shell script run as root in a guest, over SSH to its floating IP from outside. */
const asRoot = (guest: (typeof guests)['a'], script: string) =>
  outside(
    [
      'ssh',
      ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null'],
      ...['-o', 'ConnectTimeout=10', '-o', 'LogLevel=ERROR'],
      ...['-i', path.join(keyDir, 'key'), `root@${guest.publicIp}`, 'sh', '-s'],
    ],
    script,
  );

beforeAll(async () => {
  keyDir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(keyDir, 'key')]);
  const publicKey = readFileSync(path.join(keyDir, 'key.pub'), 'utf8').trim();
  netRef = (await driver.networking.createNetwork('os-1', network, `${run}-net`)).ref;
  for (const guest of Object.values(guests)) {
    const request: CreateServerRequest = {
      clientToken: `${run}-${guest.name}`,
      providerKey: 'lab-os',
      regionKey: 'os-1',
      imageKey: 'busybox',
      sizeKey: 'micro',
      name: guest.name,
      username: 'launchpad',
      password: 'Secret#Pass1',
      authorizedKeys: [publicKey],
      primaryPort: { networkRef: netRef, fixedIp: guest.ip, macAddress: guest.mac },
      publicIp: guest.publicIp,
    };
    servers.push((await driver.createServer(request)).ref);
  }
  for (const guest of Object.values(guests)) {
    await until(
      `${guest.name} on its floating IP`,
      async () => fromOutside(`http://${guest.publicIp}/`).includes(`hello from ${guest.name}`),
      400,
    );
    await until(`SSH to ${guest.name}`, async () => {
      try {
        return asRoot(guest, 'id -u').trim() === '0';
      } catch {
        return false;
      }
    });
  }
}, 600_000);

afterAll(async () => {
  for (const ref of servers) await driver.deleteServer(ref, `${run}-delete`).catch(() => {});
  for (const ref of servers) await until('deleted', async () => !(await driver.getServer(ref)));
  if (netRef) await driver.networking.deleteNetwork(netRef, `${run}-ndelete`);
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
}, 300_000);

describe('a guest on a company network of an OpenStack region cannot speak for another', () => {
  it('makes every port with port security on', async () => {
    for (const ref of servers) {
      const [port] = (await driver.getServer(ref))!.ports;
      const shown = openstack<{ port_security_enabled: boolean; security_group_ids: string[] }>(
        'port',
        'show',
        port!.ref.split('/')[1]!,
      );
      expect(shown.port_security_enabled).toBe(true);
      expect(shown.security_group_ids).toHaveLength(1);
    }
  });

  it("drops a guest's ARP answers and IP packets for its neighbour's address", () => {
    const { a, b } = guests;
    expect(fromOutside(`http://${b.publicIp}/`)).toContain(`hello from ${b.name}`);
    // Echo requests reaching the outside, counted by the floating IP they come from.
    outside([
      'nft',
      `table ip probe { chain input { type filter hook input priority 0; ip saddr ${a.publicIp} icmp type echo-request counter; ip saddr ${b.publicIp} icmp type echo-request counter; }; }`,
    ]);
    try {
      // A takes B's address, tells the network it is B's (gratuitous ARP requests and answers),
      // and sends from it; then from its own address, which goes through.
      asRoot(
        a,
        `ip addr add ${b.ip}/32 dev eth0
arping -U -c 2 -I eth0 -s ${b.ip} ${b.ip} >/dev/null 2>&1 || true
arping -A -c 2 -I eth0 -s ${b.ip} ${b.ip} >/dev/null 2>&1 || true
ping -c 3 -W 1 -I ${b.ip} 203.0.113.1 >/dev/null 2>&1 || true
ping -c 3 -W 1 -I ${a.ip} 203.0.113.1 >/dev/null 2>&1 || true
`,
      );
      const counted = outside(['nft', 'list', 'table', 'ip', 'probe']);
      const packets = (address: string) =>
        Number(new RegExp(`${address.replaceAll('.', '\\.')} .*packets (\\d+)`).exec(counted)?.[1]);
      expect(packets(a.publicIp)).toBeGreaterThan(0);
      expect(packets(b.publicIp)).toBe(0);
      // The router still sends B's traffic to B.
      for (let i = 0; i < 3; i += 1) {
        expect(fromOutside(`http://${b.publicIp}/`)).toContain(`hello from ${b.name}`);
      }
    } finally {
      asRoot(a, `ip addr del ${b.ip}/32 dev eth0 2>/dev/null || true\n`);
      outside(['nft', 'delete', 'table', 'ip', 'probe']);
    }
  });
});
