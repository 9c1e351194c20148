import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock';
import { connectPglite, type Database } from '../../server/db/client';
import * as schema from '../../server/schema';
import { LibvirtDriver } from '../../server/providers/libvirt/driver';
import { networkNames } from '../../server/providers/libvirt/host-network';
import { lvNetworks, lvServers } from '../../server/providers/libvirt/schema';
import { labProviderConfig, readBuiltImage } from '../../scripts/libvirt/lab-config';
import { startLabHost, stopLabHost, type LabHost } from '../../scripts/libvirt/lab-host';
import { inBox, markers, until } from './support/lab';

/**
 * A region of two hosts: guests go where memory is available, and a network reaches both hosts
 * through VXLAN, with its router (DHCP, SNAT) on the first. The hosts' own link is a veth between
 * the two lab hosts' namespaces.
 */
describe('a libvirt region of two hosts', () => {
  let baseDir: string;
  let first: LabHost;
  let second: LabHost;
  let database: Database;
  let driver: LibvirtDriver;
  let stateDir: string;

  beforeAll(async () => {
    baseDir = mkdtempSync(path.join(tmpdir(), 'lphosts-'));
    chmodSync(baseDir, 0o755);
    [first, second] = await Promise.all([startLabHost({ baseDir }), startLabHost({ baseDir })]);
    execFileSync('sh', [
      '-euc',
      `ip -n ${first.hostNs} link add underlay type veth peer name underlay netns ${second.hostNs}
       ip -n ${first.hostNs} addr add 192.168.251.1/24 dev underlay
       ip -n ${second.hostNs} addr add 192.168.251.2/24 dev underlay
       ip -n ${first.hostNs} link set underlay up
       ip -n ${second.hostNs} link set underlay up`,
    ]);
    database = connectPglite(schema);
    await database.migrate();
    const config = labProviderConfig(first, readBuiltImage());
    const region = config.providers[0]!.regions[0]!;
    region.hosts = [
      { key: 'box', uri: first.uri, run: first.run, tunnelIp: '192.168.251.1' },
      { key: 'box2', uri: second.uri, run: second.run, tunnelIp: '192.168.251.2' },
    ];
    // One folder on the machine serves both hosts' disks; each host has its own pool of it.
    stateDir = config.stateDir;
    driver = new LibvirtDriver({
      db: database.db,
      clock: systemClock,
      config,
      consoleUrl: (r) => r,
    });
  });
  afterAll(async () => {
    if (first) stopLabHost(first);
    if (second) stopLabHost(second);
    await database?.close();
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
  });

  it('places two guests on two hosts, one network across both: DHCP and traffic over VXLAN', async () => {
    const { ref: networkRef } = await driver.networking.createNetwork(
      'lab-1',
      {
        name: 'spread',
        cidr: '10.70.0.0/24',
        gatewayIp: '10.70.0.1',
        dhcp: { start: '10.70.0.10', end: '10.70.0.200' },
        dnsServers: ['203.0.113.1'],
        defaultRoute: '10.70.0.1',
        snatIp: '203.0.113.129',
      },
      'net-spread',
    );
    const refs: string[] = [];
    for (const n of [1, 2]) {
      const { ref } = await driver.createServer({
        clientToken: `spread-${n}`,
        providerKey: 'lab',
        regionKey: 'lab-1',
        imageKey: 'busybox',
        sizeKey: 'micro',
        name: `spread-${n}`,
        username: 'launchpad',
        password: 'Spread-Passw0rd-42!',
        authorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISpread spread'],
        primaryPort: { networkRef, fixedIp: `10.70.0.1${n}`, macAddress: `52:54:00:70:00:0${n}` },
        publicIp: null,
      });
      refs.push(ref);
    }
    const rows = await database.db.select().from(lvServers);
    expect(new Set(rows.map((r) => r.hostKey))).toEqual(new Set(['box', 'box2']));
    for (const ref of refs) {
      await until(`${ref} running`, async () => {
        const state = await driver.getServer(ref);
        return state?.powerState === 'running' && state.task === null;
      });
    }

    // The guest on the second host got its address from the router on the first, and answers it.
    const [network] = await database.db
      .select()
      .from(lvNetworks)
      .where(eq(lvNetworks.ref, networkRef));
    const names = networkNames('lp', stateDir, network!.id);
    const remote = rows.find((r) => r.hostKey === 'box2')!;
    const log = await until('the remote guest ready', async () => {
      const text = inBox(
        second,
        `cat ${stateDir}/logs/${remote.domain}.serial.log 2>/dev/null || true`,
      );
      return markers(text, 'READY').length > 0 ? text : undefined;
    });
    const address = /ip=(10\.70\.0\.\d+)\//.exec(markers(log, 'NET')[0]!)![1]!;
    expect(
      inBox(first, `ip netns exec ${names.namespace} curl -sS -m 5 http://${address}/`),
    ).toContain(`hello from ${remote.name}`);
    expect(inBox(second, `ls /run/netns 2>/dev/null || true`)).not.toContain(names.namespace);

    for (const ref of refs) await driver.deleteServer(ref, `delete-${ref}`);
    await driver.networking.deleteNetwork(networkRef, 'delete-spread');
    for (const host of [first, second]) {
      expect(inBox(host, 'virsh -q list --all --name').trim()).toBe('');
      expect(
        inBox(host, `ip -br link | awk '{print $1}' | grep -E '^lp[bvgt]' || true`).trim(),
      ).toBe('');
    }
  });
});
