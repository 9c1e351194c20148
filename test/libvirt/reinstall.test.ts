import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
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
 * A real TCG guest reinstalled: a file written on its disk, the server rebuilt from its image with
 * a new password and a new key, and then the file gone, the new credentials logging in and the
 * old ones refused, on the same address and MAC.
 */
const missing = missingTools();
if (missing.length > 0) throw new Error(`The libvirt suite needs: ${missing.join(', ')}`);

const token = () => randomBytes(8).toString('hex');
const mac = () => `52:54:00:${[0, 0, 0].map(() => randomBytes(1).toString('hex')).join(':')}`;

let lab: Lab;
let oldKey: string;
let newKey: string;
beforeAll(async () => {
  lab = await startLab();
  const dir = mkdtempSync(path.join(tmpdir(), 'lpkey-'));
  oldKey = path.join(dir, 'old');
  newKey = path.join(dir, 'new');
  for (const file of [oldKey, newKey]) {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'reinstall', '-f', file]);
  }
});
afterAll(async () => {
  await lab?.stop();
});

describe('reinstalling a libvirt guest', () => {
  it('wipes its disk and lets only the new password and key in', async () => {
    const { ref: netRef } = await lab.driver.networking.createNetwork(
      'lab-1',
      {
        name: 'reinstall',
        cidr: '10.90.0.0/24',
        gatewayIp: '10.90.0.1',
        dhcp: { start: '10.90.0.10', end: '10.90.0.200' },
        dnsServers: [],
        defaultRoute: '10.90.0.1',
        snatIp: '203.0.113.160',
      },
      token(),
    );
    const [net] = await lab.database.db.select().from(lvNetworks).where(eq(lvNetworks.ref, netRef));
    const viaRouter = (command: string) => fromRouter(lab, net!.id, command, 60_000).trim();
    /** A command as `user` in the guest with a key, over SSH from the network's router. */
    const withKey = (key: string, user: string, command: string) =>
      viaRouter(`ssh ${sshOptions} -i ${key} ${user}@10.90.0.10 '${command}'`);
    const withPassword = (password: string, command: string) =>
      viaRouter(
        `sshpass -p '${password}' ssh ${sshOptions} -o PubkeyAuthentication=no launchpad@10.90.0.10 ${command}`,
      );
    const disk = (command: string) =>
      `mkdir -p /mnt/d && mount /dev/vda /mnt/d && ${command}; umount /mnt/d`;

    const macAddress = mac();
    const { ref } = await lab.driver.createServer({
      clientToken: token(),
      providerKey: 'lab',
      regionKey: 'lab-1',
      imageKey: 'busybox',
      sizeKey: 'micro',
      name: 'phoenix',
      username: 'launchpad',
      password: 'Old-Password-42!',
      authorizedKeys: [readFileSync(`${oldKey}.pub`, 'utf8').trim()],
      primaryPort: { networkRef: netRef, fixedIp: '10.90.0.10', macAddress },
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
    expect(
      await until('SSH', async () =>
        withKey(oldKey, 'root', disk('echo precious > /mnt/d/precious && sync && echo written')),
      ),
    ).toBe('written');
    expect(withKey(oldKey, 'root', disk('cat /mnt/d/precious'))).toBe('precious');

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
    await ready(2);
    expect(markers(serialLog(lab, domain), 'SEED-KEY').at(-1)).toBe(
      `LAUNCHPAD-SEED-KEY ${newPublic}`,
    );

    // The disk is the image's again: its marker is there, the file written on it is not.
    expect(
      await until('SSH with the new key', async () =>
        withKey(newKey, 'root', disk('ls /mnt/d | tr "\\n" " "')),
      ),
    ).toMatch(/^launchpad-base( lost\+found)? ?$/);
    expect(withKey(newKey, 'launchpad', 'id -un')).toBe('launchpad');
    expect(withPassword('New-Password-42!', 'echo password-ok')).toBe('password-ok');
    expect(() => withKey(oldKey, 'launchpad', 'id -un')).toThrow();
    expect(() => withPassword('Old-Password-42!', 'echo password-ok')).toThrow();

    await lab.driver.deleteServer(ref, token());
    await lab.driver.networking.deleteNetwork(netRef, token());
    expect(inBox(lab.host, 'virsh -q list --all --name').trim()).toBe('');
  }, 900_000);
});
