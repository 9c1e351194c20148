import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderUnavailable,
  type CreateServerRequest,
  type NetworkSpec,
} from '../../server/providers/driver';
import { networkNames } from '../../server/providers/libvirt/host-network';
import { lvNetworks, lvServers } from '../../server/providers/libvirt/schema';
import { outside } from '../../scripts/libvirt/lab-host';
import { describeDriverConformance } from '../providers/conformance';
import {
  fromRouter,
  inBox,
  markers,
  mac,
  requireLabTools,
  token,
  serialLog,
  settle,
  sshOptions,
  startLab,
  until,
  type Lab,
} from './support/lab';

/**
 * The libvirt driver on a lab host with real TCG guests: first the contract every driver is held
 * to (test/providers/conformance.ts), with the guest's own word on its reboot and its ACPI
 * power-off, then what only libvirt shows — the host's bridges, namespaces and NAT rules, the
 * guest's seed, addresses and hardware on its serial console, SSH and HTTP to it, and a host left
 * empty. One guest each: a boot under TCG on a shared machine is what this suite's time is made of.
 */
requireLabTools();

const standard = (cidr: string, snatIp: string): NetworkSpec => {
  const base = cidr.split('/')[0]!.split('.').slice(0, 3).join('.');
  return {
    name: `net ${cidr}`,
    cidr,
    gatewayIp: `${base}.1`,
    dhcp: { start: `${base}.10`, end: `${base}.200` },
    dnsServers: ['203.0.113.1'],
    defaultRoute: `${base}.1`,
    snatIp,
  };
};

let lab: Lab;
let keyDir: string;
let publicKey: string;
/** A user's account key (Profile → SSH keys), delivered beside the generated one. */
let accountKey: string;
const password = 'Launchpad-Lab-42!';

/** A Micro server of the test image on `networkRef` at `fixedIp`, with a fresh token and MAC. */
const serverRequest = (
  networkRef: string,
  fixedIp: string,
  extra: Partial<CreateServerRequest> = {},
): CreateServerRequest => ({
  clientToken: token(),
  providerKey: 'lab',
  regionKey: 'lab-1',
  imageKey: 'busybox',
  sizeKey: 'micro',
  name: 'web-1',
  username: 'launchpad',
  password,
  authorizedKeys: [publicKey],
  primaryPort: { networkRef, fixedIp, macAddress: mac() },
  publicIp: null,
  ...extra,
});

beforeAll(async () => {
  lab = await startLab();
  keyDir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    'ed25519',
    '-N',
    '',
    '-C',
    'launchpad-test',
    '-f',
    path.join(keyDir, 'key'),
  ]);
  publicKey = readFileSync(path.join(keyDir, 'key.pub'), 'utf8').trim();
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    'ecdsa',
    '-b',
    '384',
    '-N',
    '',
    '-C',
    'ada@laptop',
    '-f',
    path.join(keyDir, 'account'),
  ]);
  accountKey = readFileSync(path.join(keyDir, 'account.pub'), 'utf8').trim();
});

afterAll(async () => {
  await lab?.stop();
});

const domainOf = async (ref: string) => {
  const [row] = await lab.database.db.select().from(lvServers).where(eq(lvServers.ref, ref));
  return row!.domain;
};

/** libvirtd in the lab host stopped, then started again: the engine unreachable, then back. */
const libvirtd = {
  async stop() {
    inBox(
      lab.host,
      'kill "$(cat /run/libvirt/libvirtd.pid)"; for i in $(seq 50); do [ -e /run/libvirt/libvirtd.pid ] || break; sleep 0.1; done',
    );
  },
  async start() {
    inBox(lab.host, 'libvirtd -d -p /run/libvirt/libvirtd.pid');
    await until('libvirtd back', async () => (await lab.driver.health()).ok);
  },
};

describeDriverConformance('libvirt', async () => ({
  driver: lab.driver,
  providerKey: 'lab',
  regionKey: 'lab-1',
  imageKey: 'busybox',
  sizeKeys: ['micro', 'extraSmall'],
  network: standard('10.70.0.0/24', '203.0.113.140'),
  addresses: ['10.70.0.10', '10.70.0.11'],
  publicIps: ['203.0.113.141', '203.0.113.142'],
  tick: () => new Promise((resolve) => setTimeout(resolve, 1000)),
  // A TCG guest's boot on a shared machine of two cores takes up to a few minutes.
  maxTicks: 280,
  outage: { begin: libvirtd.stop, end: libvirtd.start },
  // Starting a running server is done already: the driver answers it as such, changing nothing.
  repeats: 'by-state',
  checks: {
    // The guest itself booted again, not only its domain.
    async rebooted(server) {
      const domain = await domainOf(server.ref);
      await until('a second boot', async () => markers(serialLog(lab, domain), 'BOOT').length > 1);
    },
    // A stop is the ACPI button the guest answers, not a forced power-off.
    async stopped(server) {
      const domain = await domainOf(server.ref);
      expect(markers(serialLog(lab, domain), 'POWEROFF').length).toBeGreaterThan(0);
    },
  },
}));

describe('the libvirt driver on a real libvirtd with TCG guests', () => {
  let netRef: string;
  let netId: number;
  let secondRef: string;
  let serverRef: string;
  let domain: string;
  const primaryMac = mac();

  it('builds a standard network: bridge, router namespace, dnsmasq, SNAT', async () => {
    const { ref } = await lab.driver.networking.createNetwork(
      'lab-1',
      standard('10.20.0.0/24', '203.0.113.129'),
      token(),
    );
    netRef = ref;
    expect(await lab.driver.networking.getNetwork(ref)).toMatchObject({ ref, status: 'active' });
    const [row] = await lab.database.db.select().from(lvNetworks).where(eq(lvNetworks.ref, ref));
    netId = row!.id;
    const names = networkNames('lp', lab.config.stateDir, netId);
    expect(inBox(lab.host, `ip -br link show dev ${names.bridge}`)).toContain(names.bridge);
    expect(fromRouter(lab, netId, 'ip -4 -o addr show')).toMatch(/gw\s+inet 10\.20\.0\.1\/24/);
    expect(fromRouter(lab, netId, 'nft list ruleset')).toContain('snat to 203.0.113.129');
  });

  it('builds a custom network as a bare bridge: no router, DHCP or NAT', async () => {
    const spec: NetworkSpec = {
      name: 'l2',
      cidr: '10.60.0.0/24',
      gatewayIp: null,
      dhcp: null,
      dnsServers: [],
      defaultRoute: null,
      snatIp: null,
    };
    const { ref } = await lab.driver.networking.createNetwork('lab-1', spec, token());
    const [row] = await lab.database.db.select().from(lvNetworks).where(eq(lvNetworks.ref, ref));
    const names = networkNames('lp', lab.config.stateDir, row!.id);
    expect(inBox(lab.host, `ip -br link show dev ${names.bridge}`)).toContain(names.bridge);
    expect(inBox(lab.host, 'ls /run/netns')).not.toContain(names.namespace);
    await lab.driver.networking.deleteNetwork(ref, token());
    expect(inBox(lab.host, `ip -br link show dev ${names.bridge} 2>&1 || true`)).toContain(
      'does not exist',
    );
  });

  it('refuses what the engine cannot do: a missing image, a host without the memory', async () => {
    await expect(
      lab.driver.createServer(serverRequest(netRef, '10.20.0.50', { imageKey: 'missing' })),
    ).rejects.toThrow(/backing store.*\/nonexistent\/base\.qcow2/);
    await expect(
      lab.driver.createServer(serverRequest(netRef, '10.20.0.51', { sizeKey: 'extraLarge' })),
    ).rejects.toThrow(/No host in lab-1 has 64 GiB of memory free/);
    // Nothing was left behind by either.
    expect(inBox(lab.host, 'virsh -q list --all --name').trim()).toBe('');
    expect(inBox(lab.host, 'virsh -q vol-list lp-disks 2>/dev/null || true').trim()).toBe('');
  });

  it('boots a guest with its address, credentials, hardware and public IP', async () => {
    const request = serverRequest(netRef, '10.20.0.10', {
      publicIp: '203.0.113.130',
      authorizedKeys: [publicKey, accountKey],
    });
    request.primaryPort.macAddress = primaryMac;
    const { ref } = await lab.driver.createServer(request);
    serverRef = ref;
    domain = await domainOf(ref);
    expect(inBox(lab.host, 'virsh -q list --all --name').trim().split('\n')).toEqual([domain]);

    const state = await settle(lab, ref, 150_000);
    expect(state).toMatchObject({ powerState: 'running', sizeKey: 'micro', fault: null });

    const log = await until('the guest to be ready', async () =>
      markers(serialLog(lab, domain), 'READY').length ? serialLog(lab, domain) : undefined,
    );
    expect(markers(log, 'SEED')[0]).toMatch(/user=launchpad .*password_hash=\$6\$.* keys=2/);
    expect(markers(log, 'SEED-KEY')).toEqual([
      `LAUNCHPAD-SEED-KEY ${publicKey}`,
      `LAUNCHPAD-SEED-KEY ${accountKey}`,
    ]);
    expect(markers(log, 'NET')[0]).toMatch(
      /eth0 mac=52:54:00:.* ip=10\.20\.0\.10\/24 router=10\.20\.0\.1 dns=203\.0\.113\.1/,
    );
    expect(markers(log, 'HW')[0]).toMatch(/cpus=2 mem_kib=\d+ disk_bytes=85899345920/);
  });

  it('reaches the guest over the bridge, with the SSH keys and the password the seed delivered', async () => {
    expect(fromRouter(lab, netId, 'curl -sS -m 5 http://10.20.0.10/')).toContain(
      'hello from web-1',
    );
    const key = path.join(keyDir, 'key');
    expect(
      fromRouter(lab, netId, `ssh ${sshOptions} -i ${key} launchpad@10.20.0.10 id -un`).trim(),
    ).toBe('launchpad');
    // The user's account key opens it as well.
    const account = path.join(keyDir, 'account');
    expect(
      fromRouter(
        lab,
        netId,
        `ssh ${sshOptions} -o IdentitiesOnly=yes -i ${account} launchpad@10.20.0.10 echo account-key-ok`,
      ),
    ).toContain('account-key-ok');
    expect(
      fromRouter(
        lab,
        netId,
        `sshpass -p '${password}' ssh ${sshOptions} -o PubkeyAuthentication=no launchpad@10.20.0.10 echo password-ok`,
      ).trim(),
    ).toBe('password-ok');
  });

  it('answers on its public IP from outside, and its own connections leave from it', async () => {
    expect(outside(lab.host, ['curl', '-sS', '-m', '5', 'http://203.0.113.130/'])).toContain(
      'hello from web-1',
    );
    // A listener outside that answers each caller with the address it sees.
    const listener = execFileSync('sh', [
      '-c',
      `ip netns exec ${lab.host.outsideNs} timeout 30 socat TCP-LISTEN:8099,reuseaddr,fork SYSTEM:'echo seen $SOCAT_PEERADDR' >/dev/null 2>&1 & echo $!`,
    ])
      .toString()
      .trim();
    try {
      const key = path.join(keyDir, 'key');
      const seen = await until('the outside listener', async () =>
        fromRouter(
          lab,
          netId,
          `ssh ${sshOptions} -i ${key} launchpad@10.20.0.10 'busybox nc 203.0.113.1 8099 </dev/null'`,
        ),
      );
      expect(seen.trim()).toBe('seen 203.0.113.130');
    } finally {
      execFileSync('sh', ['-c', `kill ${listener} 2>/dev/null || true`]);
    }
  });

  it("reports the guest's real memory use, from its balloon driver", async () => {
    const { usage } = (await lab.driver.getServer(serverRef))!;
    expect(usage.ram).toBeGreaterThan(0);
    expect(usage.ram).toBeLessThanOrEqual(100);
  });

  it('stops, plugs a second interface and resizes offline: the guest boots with both', async () => {
    await lab.driver.stopServer(serverRef, token());
    expect((await settle(lab, serverRef, 150_000)).powerState).toBe('shutoff');

    const second = await lab.driver.networking.createNetwork(
      'lab-1',
      standard('10.30.0.0/24', '203.0.113.131'),
      token(),
    );
    secondRef = second.ref;
    await lab.driver.networking.attachPort(
      serverRef,
      { networkRef: second.ref, fixedIp: '10.30.0.10', macAddress: mac() },
      token(),
    );
    await lab.driver.resizeServer(serverRef, 'extraSmall', token());
    expect(await settle(lab, serverRef, 150_000)).toMatchObject({
      powerState: 'shutoff',
      sizeKey: 'extraSmall',
    });

    await lab.driver.startServer(serverRef, token());
    expect((await settle(lab, serverRef, 150_000)).powerState).toBe('running');
    await until('eth1 on the second network', async () =>
      markers(serialLog(lab, domain), 'NET').some((l) => /eth1 .*ip=10\.30\.0\.10\/24/.test(l)),
    );
    await until('the new hardware in the guest', async () =>
      markers(serialLog(lab, domain), 'HW').some((l) => /cpus=4 .*disk_bytes=128849018880/.test(l)),
    );
  });

  it('releases the public IP, unplugs the interface and deletes everything it made', async () => {
    const [primary, extra] = (await lab.driver.getServer(serverRef))!.ports;
    await lab.driver.networking.releasePublicIp(primary!.ref, token());
    expect((await lab.driver.networking.getPort(primary!.ref))?.publicIp).toBeNull();
    expect(fromRouter(lab, netId, 'nft list ruleset')).not.toContain('203.0.113.130');

    await lab.driver.stopServer(serverRef, token());
    await settle(lab, serverRef, 150_000);
    await lab.driver.networking.detachPort(extra!.ref, token());
    expect(await lab.driver.networking.getPort(extra!.ref)).toBeNull();
    expect(inBox(lab.host, `virsh -q dumpxml ${domain} --inactive`)).not.toContain(
      extra!.macAddress,
    );

    await lab.driver.deleteServer(serverRef, token());
    expect(await lab.driver.getServer(serverRef)).toBeNull();
    await lab.driver.networking.deleteNetwork(netRef, token());
    await lab.driver.networking.deleteNetwork(secondRef, token());
    expect(await lab.driver.networking.getNetwork(netRef)).toBeNull();

    expect(inBox(lab.host, 'virsh -q list --all --name').trim()).toBe('');
    expect(inBox(lab.host, 'virsh -q vol-list lp-disks').trim()).toBe('');
    expect(
      inBox(
        lab.host,
        "ip -br link | awk '{print $1}' | grep -vE '^(lo|lpup|lpo@.*)$' || true",
      ).trim(),
    ).toBe('');
    expect(inBox(lab.host, 'ls /run/netns 2>/dev/null || true').trim()).toBe('');
    expect(
      inBox(
        lab.host,
        `ls ${lab.config.stateDir}/networks ${lab.config.stateDir}/logs 2>/dev/null || true`,
      )
        .replace(/.*:\n?/g, '')
        .trim(),
    ).toBe('');
    // Its own dnsmasq only: the machine may run others (an OpenStack's DHCP agent, say).
    expect(
      inBox(lab.host, `pgrep -f '[d]nsmasq --conf-file=${lab.config.stateDir}/' || true`).trim(),
    ).toBe('');
  });

  it('reports a guest that does not boot as an error with the reason', async () => {
    const { ref } = await lab.driver.networking.createNetwork(
      'lab-1',
      standard('10.40.0.0/24', '203.0.113.132'),
      token(),
    );
    const server = await lab.driver.createServer(
      serverRequest(ref, '10.40.0.10', { imageKey: 'no-boot', name: 'broken' }),
    );
    const state = await settle(lab, server.ref, 150_000);
    expect(state.powerState).toBe('error');
    expect(state.fault).toMatchObject({
      userMessage: expect.stringMatching(/did not boot: .*Kernel panic/),
    });
    await lab.driver.deleteServer(server.ref, token());
    await lab.driver.networking.deleteNetwork(ref, token());
  });

  it('names the unreachable libvirtd, and takes the refused create when it is retried', async () => {
    const { ref } = await lab.driver.networking.createNetwork(
      'lab-1',
      standard('10.50.0.0/24', '203.0.113.133'),
      token(),
    );
    const request = serverRequest(ref, '10.50.0.10', { name: 'while-down' });
    await libvirtd.stop();
    let refused: unknown;
    try {
      refused = await lab.driver.createServer(request).catch((error: unknown) => error);
    } finally {
      await libvirtd.start();
    }
    expect(refused).toBeInstanceOf(ProviderUnavailable);
    expect(String(refused)).toMatch(/libvirt at box is unreachable/);

    // The same call, retried as the reconciler would, now goes through: the refusal kept nothing.
    const { ref: serverRef } = await lab.driver.createServer(request);
    expect((await lab.driver.getServer(serverRef))?.powerState).toBe('building');
    await lab.driver.deleteServer(serverRef, token());
    expect(await lab.driver.getServer(serverRef)).toBeNull();
    await lab.driver.networking.deleteNetwork(ref, token());
    expect(inBox(lab.host, 'virsh -q list --all --name').trim()).toBe('');
  });
});
