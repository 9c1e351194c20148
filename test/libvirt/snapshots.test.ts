import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lvNetworks, lvServers } from '../../server/providers/libvirt/schema';
import {
  fromRouter,
  inBox,
  markers,
  missingTools,
  serialLog,
  settle,
  sshOptions,
  startLab,
  until,
  type Lab,
} from './support/lab';

/**
 * Snapshots of a real TCG guest's disk, as files of their own on the host: a file written in the
 * guest, a snapshot of the running guest, the file changed, the snapshot restored, and the file
 * read back as it was; a snapshot kept through a reinstall (which wipes the file) and restored
 * after it; a snapshot of the shut-off guest; and, deleted one by one or with the server, nothing
 * of them left on the host.
 */
const missing = missingTools();
if (missing.length > 0) throw new Error(`The libvirt suite needs: ${missing.join(', ')}`);

const token = () => randomBytes(8).toString('hex');
const mac = () => `52:54:00:${[0, 0, 0].map(() => randomBytes(1).toString('hex')).join(':')}`;

let lab: Lab;
let key: string;
beforeAll(async () => {
  lab = await startLab();
  const dir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  key = path.join(dir, 'key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'snapshots', '-f', key]);
});
afterAll(async () => {
  await lab?.stop();
});

describe('snapshots of a libvirt guest', () => {
  it('restores a file the guest changed after the snapshot, running or shut off', async () => {
    const { ref: netRef } = await lab.driver.networking.createNetwork(
      'lab-1',
      {
        name: 'snapshots',
        cidr: '10.80.0.0/24',
        gatewayIp: '10.80.0.1',
        dhcp: { start: '10.80.0.10', end: '10.80.0.200' },
        dnsServers: [],
        defaultRoute: '10.80.0.1',
        snatIp: '203.0.113.150',
      },
      token(),
    );
    const [net] = await lab.database.db.select().from(lvNetworks).where(eq(lvNetworks.ref, netRef));
    /** A shell command as root in the guest, over SSH from the network's router. */
    const inGuest = (command: string) =>
      fromRouter(
        lab,
        net!.id,
        `ssh ${sshOptions} -i ${key} root@10.80.0.10 '${command}'`,
        60_000,
      ).trim();
    const file = (body: string) =>
      `mkdir -p /mnt/d && mount /dev/vda /mnt/d && echo ${body} > /mnt/d/note && sync && umount /mnt/d && echo written`;
    const readFile =
      'mkdir -p /mnt/d && mount -o ro /dev/vda /mnt/d && (cat /mnt/d/note 2>/dev/null || echo no-note); umount /mnt/d';
    const snapshotsDir = path.join(lab.config.stateDir, 'snapshots');
    const fileOf = (snapshot: string) => path.join(snapshotsDir, `${snapshot}.qcow2`);
    const authorizedKeys = [readFileSync(`${key}.pub`, 'utf8').trim()];

    const { ref } = await lab.driver.createServer({
      clientToken: token(),
      providerKey: 'lab',
      regionKey: 'lab-1',
      imageKey: 'busybox',
      sizeKey: 'micro',
      name: 'snappy',
      username: 'launchpad',
      password: 'Launchpad-Lab-42!',
      authorizedKeys,
      primaryPort: { networkRef: netRef, fixedIp: '10.80.0.10', macAddress: mac() },
      publicIp: null,
    });
    const [row] = await lab.database.db.select().from(lvServers).where(eq(lvServers.ref, ref));
    const domain = row!.domain;
    expect((await settle(lab, ref, 300_000)).powerState).toBe('running');
    const ready = (n: number) =>
      until(
        `boot ${n} ready`,
        async () => markers(serialLog(lab, domain), 'READY').length >= n,
        300_000,
      );
    await ready(1);
    expect(await until('SSH', async () => inGuest(file('before-snapshot')))).toBe('written');

    // The running guest's snapshot: a file of its own, available at once, with its size.
    const { ref: running } = await lab.driver.createSnapshot(ref, 'before change', token());
    const taken = await lab.driver.getSnapshot(running);
    expect(taken).toMatchObject({ status: 'available', fault: null });
    const stat = statSync(fileOf(running));
    expect(taken!.sizeBytes).toBe(stat.blocks * 512);
    expect(taken!.sizeBytes).toBeGreaterThan(0);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(inBox(lab.host, `qemu-img info -U '${fileOf(running)}'`)).toContain(lab.image.base);
    expect(inBox(lab.host, `virsh -q snapshot-list ${domain} --name`).trim()).toBe('');
    expect((await lab.driver.getServer(ref))?.powerState).toBe('running');

    expect(inGuest(file('after-snapshot'))).toBe('written');
    expect(inGuest(readFile)).toBe('after-snapshot');

    await lab.driver.restoreSnapshot(ref, running, token());
    expect((await settle(lab, ref, 300_000)).powerState).toBe('running');
    await ready(2);
    expect(await until('SSH again', async () => inGuest(readFile))).toBe('before-snapshot');

    // A reinstall wipes the disk and leaves the snapshot alone: restored after it, the file is back.
    const { ref: kept } = await lab.driver.createSnapshot(ref, 'before reinstall', token());
    expect(await lab.driver.getSnapshot(kept)).toMatchObject({ status: 'available' });
    await lab.driver.rebuildServer(ref, {
      clientToken: token(),
      imageKey: 'busybox',
      username: 'launchpad',
      password: 'Launchpad-Lab-43!',
      authorizedKeys,
    });
    expect((await settle(lab, ref, 300_000)).powerState).toBe('running');
    await ready(3);
    expect(await until('SSH after the reinstall', async () => inGuest(readFile))).toBe('no-note');
    expect(await lab.driver.getSnapshot(kept)).toMatchObject({ status: 'available' });
    await lab.driver.restoreSnapshot(ref, kept, token());
    expect((await settle(lab, ref, 300_000)).powerState).toBe('running');
    await ready(4);
    expect(await until('SSH after the restore', async () => inGuest(readFile))).toBe(
      'before-snapshot',
    );

    // Shut off: a snapshot of the disk alone, restored with the guest left shut off.
    await lab.driver.stopServer(ref, token());
    expect((await settle(lab, ref, 300_000)).powerState).toBe('shutoff');
    const { ref: stopped } = await lab.driver.createSnapshot(ref, 'stopped', token());
    expect(await lab.driver.getSnapshot(stopped)).toMatchObject({ status: 'available' });
    await lab.driver.restoreSnapshot(ref, running, token());
    expect((await settle(lab, ref, 300_000)).powerState).toBe('shutoff');

    for (const snapshot of [running, stopped]) {
      await lab.driver.deleteSnapshot(snapshot, token());
      expect(await lab.driver.getSnapshot(snapshot)).toBeNull();
      expect(existsSync(fileOf(snapshot))).toBe(false);
    }
    expect(readdirSync(snapshotsDir)).toEqual([`${kept}.qcow2`]);

    // The server's delete takes the snapshots left with it.
    await lab.driver.deleteServer(ref, token());
    expect(await lab.driver.getSnapshot(kept)).toBeNull();
    expect(readdirSync(snapshotsDir)).toEqual([]);
    await lab.driver.networking.deleteNetwork(netRef, token());
    expect(inBox(lab.host, 'virsh -q list --all --name').trim()).toBe('');
  }, 900_000);
});
