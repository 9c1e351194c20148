import { execFileSync } from 'node:child_process';
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
 * A real TCG guest's disk, snapshotted and reinstalled (one guest for both: each boot under TCG
 * costs a minute). Snapshots are files of their own on the host: a file written in the guest, a
 * snapshot of the running guest, the file changed, the snapshot restored, and the file read back
 * as it was. A reinstall wipes the disk, keeps the address and MAC, and lets only the new password
 * and key in; a snapshot taken before it survives it and brings the file back. A snapshot of the
 * shut-off guest; and, deleted one by one or with the server, nothing of them left on the host.
 */
requireLabTools();

let lab: Lab;
let oldKey: string;
let newKey: string;
beforeAll(async () => {
  lab = await startLab();
  const dir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  oldKey = path.join(dir, 'old');
  newKey = path.join(dir, 'new');
  for (const file of [oldKey, newKey]) {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'disk', '-f', file]);
  }
});
afterAll(async () => {
  await lab?.stop();
});

describe("a libvirt guest's disk", () => {
  it('is snapshotted, reinstalled and restored, running or shut off', async () => {
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
    const viaRouter = (command: string) => fromRouter(lab, net!.id, command, 60_000).trim();
    /** A command as `user` in the guest with a key, over SSH from the network's router. */
    const withKey = (key: string, user: string, command: string) =>
      viaRouter(`ssh ${sshOptions} -i ${key} ${user}@10.80.0.10 '${command}'`);
    const withPassword = (password: string, command: string) =>
      viaRouter(
        `sshpass -p '${password}' ssh ${sshOptions} -o PubkeyAuthentication=no launchpad@10.80.0.10 ${command}`,
      );
    let key = oldKey;
    /** A shell command as root in the guest, with the key it was last given. */
    const inGuest = (command: string) => withKey(key, 'root', command);
    const file = (body: string) =>
      `mkdir -p /mnt/d && mount /dev/vda /mnt/d && echo ${body} > /mnt/d/note && sync && umount /mnt/d && echo written`;
    const disk = (command: string) =>
      `mkdir -p /mnt/d && mount /dev/vda /mnt/d && ${command}; umount /mnt/d`;
    const readFile =
      'mkdir -p /mnt/d && mount -o ro /dev/vda /mnt/d && (cat /mnt/d/note 2>/dev/null || echo no-note); umount /mnt/d';
    const snapshotsDir = path.join(lab.config.stateDir, 'snapshots');
    const fileOf = (snapshot: string) => path.join(snapshotsDir, `${snapshot}.qcow2`);
    const macAddress = mac();
    const { ref } = await lab.driver.createServer({
      clientToken: token(),
      providerKey: 'lab',
      regionKey: 'lab-1',
      imageKey: 'busybox',
      sizeKey: 'micro',
      name: 'snappy',
      username: 'launchpad',
      password: 'Old-Password-42!',
      authorizedKeys: [readFileSync(`${oldKey}.pub`, 'utf8').trim()],
      primaryPort: { networkRef: netRef, fixedIp: '10.80.0.10', macAddress },
      publicIp: null,
    });
    const [row] = await lab.database.db.select().from(lvServers).where(eq(lvServers.ref, ref));
    const domain = row!.domain;
    const before = await settle(lab, ref, 300_000);
    expect(before.powerState).toBe('running');
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

    // A reinstall wipes the disk to the image's, on the same address and MAC, with only the new
    // password and key; the snapshot taken before it is left alone and brings the file back.
    const { ref: kept } = await lab.driver.createSnapshot(ref, 'before reinstall', token());
    expect(await lab.driver.getSnapshot(kept)).toMatchObject({ status: 'available' });
    const newPublic = readFileSync(`${newKey}.pub`, 'utf8').trim();
    await lab.driver.rebuildServer(ref, {
      clientToken: token(),
      imageKey: 'busybox',
      username: 'launchpad',
      password: 'New-Password-42!',
      authorizedKeys: [newPublic],
    });
    expect((await lab.driver.getServer(ref))?.task).toBe('rebuilding');
    const after = await settle(lab, ref, 300_000);
    expect(after).toMatchObject({ powerState: 'running', fault: null, ports: before.ports });
    expect(after.ports[0]!.macAddress).toBe(macAddress);
    await ready(3);
    expect(markers(serialLog(lab, domain), 'SEED-KEY').at(-1)).toBe(
      `LAUNCHPAD-SEED-KEY ${newPublic}`,
    );
    key = newKey;
    expect(
      await until('SSH after the reinstall', async () => inGuest(disk('ls /mnt/d | tr "\\n" " "'))),
    ).toMatch(/^launchpad-base( lost\+found)? ?$/);
    expect(withKey(newKey, 'launchpad', 'id -un')).toBe('launchpad');
    expect(withPassword('New-Password-42!', 'echo password-ok')).toBe('password-ok');
    expect(() => withKey(oldKey, 'launchpad', 'id -un')).toThrow();
    expect(() => withPassword('Old-Password-42!', 'echo password-ok')).toThrow();

    expect(await lab.driver.getSnapshot(kept)).toMatchObject({ status: 'available' });
    await lab.driver.restoreSnapshot(ref, kept, token());
    expect((await settle(lab, ref, 300_000)).powerState).toBe('running');
    await ready(4);
    // The image's seed is read at every boot: the key is still the reinstall's.
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
