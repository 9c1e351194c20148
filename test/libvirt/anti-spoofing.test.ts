import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateServerRequest, NetworkSpec } from '../../server/providers/driver';
import { networkNames, type NetworkNames } from '../../server/providers/libvirt/host-network';
import { lvNetworks, lvServers } from '../../server/providers/libvirt/schema';
import { outside } from '../../scripts/libvirt/lab-host';
import {
  inBox,
  mac,
  markers,
  requireLabTools,
  serialLog,
  startLab,
  token,
  until,
  type Lab,
} from './support/lab';

/**
 * A guest that an attacker owns, on a company network beside another guest: what it sends for
 * the other's address (ARP answers, IP packets, DHCP offers) never reaches anyone, and the
 * network's DHCP server holds nothing of the host (it runs as its own unprivileged user).
 */

requireLabTools();

const spec: NetworkSpec = {
  name: 'company net',
  cidr: '10.70.0.0/24',
  gatewayIp: '10.70.0.1',
  dhcp: { start: '10.70.0.10', end: '10.70.0.200' },
  dnsServers: ['203.0.113.1'],
  defaultRoute: '10.70.0.1',
  snatIp: '203.0.113.150',
};

/** The attacker's guest and its neighbour, each with a public address. */
const guests = {
  a: { name: 'guest-a', ip: '10.70.0.10', publicIp: '203.0.113.151', mac: mac() },
  b: { name: 'guest-b', ip: '10.70.0.11', publicIp: '203.0.113.152', mac: mac() },
};

let lab: Lab;
let keyDir: string;
let netRef: string;
let names: NetworkNames;

const serverRequest = (guest: (typeof guests)['a'], publicKey: string): CreateServerRequest => ({
  clientToken: token(),
  providerKey: 'lab',
  regionKey: 'lab-1',
  imageKey: 'busybox',
  sizeKey: 'micro',
  name: guest.name,
  username: 'launchpad',
  password: 'Launchpad-Lab-42!',
  authorizedKeys: [publicKey],
  primaryPort: { networkRef: netRef, fixedIp: guest.ip, macAddress: guest.mac },
  publicIp: guest.publicIp,
});

/** A shell script run as root in a guest, over SSH from the network's router. */
function asRoot(guest: (typeof guests)['a'], script: string, timeoutMs = 60_000): string {
  const [command, ...args] = lab.host.run;
  return execFileSync(
    command!,
    [
      ...args,
      'ip',
      'netns',
      'exec',
      names.namespace,
      'ssh',
      ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null'],
      ...['-o', 'ConnectTimeout=10', '-o', 'LogLevel=ERROR'],
      ...['-i', path.join(keyDir, 'key'), `root@${guest.ip}`, 'sh', '-s'],
    ],
    { input: script, timeout: timeoutMs },
  ).toString();
}

/** What a page on a public address says, fetched from outside (empty when nothing answers). */
const page = (address: string) => {
  try {
    return outside(lab.host, ['curl', '-sS', '-m', '5', `http://${address}/`]);
  } catch {
    return '';
  }
};

beforeAll(async () => {
  lab = await startLab();
  keyDir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(keyDir, 'key')]);
  const publicKey = readFileSync(path.join(keyDir, 'key.pub'), 'utf8').trim();
  netRef = (await lab.driver.networking.createNetwork('lab-1', spec, token())).ref;
  const [row] = await lab.database.db.select().from(lvNetworks).where(eq(lvNetworks.ref, netRef));
  names = networkNames('lp', lab.config.stateDir, row!.id);
  const domains: { ref: string; domain: string }[] = [];
  for (const guest of Object.values(guests)) {
    const { ref } = await lab.driver.createServer(serverRequest(guest, publicKey));
    const [server] = await lab.database.db.select().from(lvServers).where(eq(lvServers.ref, ref));
    domains.push({ ref, domain: server!.domain });
  }
  for (const { ref, domain } of domains) {
    await until(
      `${domain} ready`,
      async () => {
        // The driver advances the boot as it is read.
        await lab.driver.getServer(ref);
        return markers(serialLog(lab, domain), 'READY').length > 0;
      },
      400_000,
    );
  }
}, 600_000);

afterAll(async () => {
  await lab?.stop();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

describe('a guest on a company network cannot speak for another guest', () => {
  it("drops a guest's ARP answers and IP packets for its neighbour's address", async () => {
    expect(page(guests.b.publicIp)).toContain('hello from guest-b');
    // Echo requests reaching the outside, counted by the public address they come from.
    outside(lab.host, [
      'nft',
      `table ip probe { chain input { type filter hook input priority 0; ip saddr ${guests.a.publicIp} icmp type echo-request counter; ip saddr ${guests.b.publicIp} icmp type echo-request counter; }; }`,
    ]);
    const { a, b } = guests;
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
      const counted = outside(lab.host, ['nft', 'list', 'table', 'ip', 'probe']);
      const packets = (address: string) =>
        Number(new RegExp(`${address.replaceAll('.', '\\.')} .*packets (\\d+)`).exec(counted)?.[1]);
      expect(packets(a.publicIp)).toBeGreaterThan(0);
      expect(packets(b.publicIp)).toBe(0);
      // The router still reaches B's address at B's MAC, and B's page is B's.
      expect(inBox(lab.host, `ip -n ${names.namespace} neigh show ${b.ip} dev gw`)).toContain(
        b.mac,
      );
      for (let i = 0; i < 3; i += 1) expect(page(b.publicIp)).toContain('hello from guest-b');
    } finally {
      asRoot(a, `ip addr del ${b.ip}/32 dev eth0 2>/dev/null || true\n`);
      outside(lab.host, ['nft', 'delete', 'table', 'ip', 'probe']);
      // Whatever A made the router believe, it asks again (the next test reaches B).
      inBox(lab.host, `ip -n ${names.namespace} neigh flush dev gw`);
    }
  });

  it('lets no DHCP offer from a guest running a DHCP server reach another guest', async () => {
    const { a, b } = guests;
    asRoot(
      a,
      `printf 'start 10.70.0.150\\nend 10.70.0.160\\ninterface eth0\\nlease_file /tmp/udhcpd.leases\\noption subnet 255.255.255.0\\n' > /tmp/udhcpd.conf
touch /tmp/udhcpd.leases
udhcpd /tmp/udhcpd.conf
`,
    );
    // B asks for an address and reports which server leased it one; its own address stays.
    const ask = () =>
      asRoot(
        b,
        `printf '#!/bin/sh\\n[ "$1" = bound ] && echo "lease ip=$ip server=$serverid" >> /tmp/offers\\nexit 0\\n' > /tmp/offer.sh
chmod +x /tmp/offer.sh
rm -f /tmp/offers
udhcpc -i eth0 -n -q -t 3 -T 2 -s /tmp/offer.sh >/dev/null 2>&1 || true
cat /tmp/offers 2>/dev/null || echo none
`,
      ).trim();
    // The network's own DHCP server stopped: A's is the only one left to answer.
    inBox(lab.host, `kill "$(cat ${names.dir}/dnsmasq.pid)"`);
    try {
      expect(ask()).toBe('none');
    } finally {
      // The driver starts it again on the next change to the network.
      await lab.driver.networking.updateNetwork(netRef, spec, token());
    }
    // Requests still go out: the network's own server answers B with B's address.
    expect(ask()).toBe(`lease ip=${b.ip} server=${spec.gatewayIp}`);
  });

  it("runs the network's DHCP server as its own unprivileged user", () => {
    const status = inBox(lab.host, `cat /proc/"$(cat ${names.dir}/dnsmasq.pid)"/status`);
    const uids = /^Uid:\s+(.*)$/m.exec(status)![1]!.trim().split(/\s+/).map(Number);
    const dnsmasqUid = Number(execFileSync('id', ['-u', 'dnsmasq']).toString().trim());
    expect(dnsmasqUid).toBeGreaterThan(0);
    expect(uids).toEqual([dnsmasqUid, dnsmasqUid, dnsmasqUid, dnsmasqUid]);
  });
});
