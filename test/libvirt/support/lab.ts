import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../../../server/clock';
import { connectPglite, type Database } from '../../../server/db/client';
import * as schema from '../../../server/schema';
import type { LibvirtConfig } from '../../../server/providers/libvirt/config';
import {
  labProviderConfig,
  readBuiltImage,
  type BuiltImage,
} from '../../../scripts/libvirt/lab-config';
import type { ServerState } from '../../../server/providers/driver';
import { LibvirtDriver } from '../../../server/providers/libvirt/driver';
import { networkNames } from '../../../server/providers/libvirt/host-network';
import {
  inBox,
  requireTools,
  startLabHost,
  stopLabHost,
  type LabHost,
} from '../../../scripts/libvirt/lab-host';

/** Stops a suite file at once, naming the tools it lacks, rather than failing in every test. */
export function requireLabTools(): void {
  const missing = requireTools();
  if (missing.length > 0) throw new Error(`The libvirt suite needs: ${missing.join(', ')}`);
}

/** A client token for a driver call. */
export const token = () => randomBytes(8).toString('hex');
/** A MAC address in QEMU's locally administered range. */
export const mac = () =>
  `52:54:00:${[0, 0, 0].map(() => randomBytes(1).toString('hex')).join(':')}`;

/** The lab provider, with two images that fail: one that does not boot, one that is missing. */
function testConfig(host: LabHost, image: BuiltImage): LibvirtConfig {
  return labProviderConfig(host, image, {
    extraImages: [
      // A kernel with an initramfs that is not one: the guest panics.
      {
        key: 'no-boot',
        name: 'Broken image',
        username: image.username,
        base: image.base,
        kernel: image.kernel,
        initrd: path.join(host.stateDir, 'garbage.img'),
        cmdline: `${image.cmdline} root=/dev/nowhere`,
      },
      {
        key: 'missing',
        name: 'Missing image',
        username: 'nobody',
        base: '/nonexistent/base.qcow2',
      },
    ],
  });
}

export interface Lab {
  host: LabHost;
  database: Database;
  driver: LibvirtDriver;
  config: LibvirtConfig;
  image: BuiltImage;
  stop(): Promise<void>;
}

export async function startLab(): Promise<Lab> {
  const image = readBuiltImage();
  const baseDir = mkdtempSync(path.join(tmpdir(), 'lplab-'));
  // QEMU runs as libvirt-qemu: it must be able to walk down to the disks.
  chmodSync(baseDir, 0o755);
  const host = await startLabHost({ baseDir });
  execFileSync('sh', [
    '-c',
    `head -c 4096 /dev/urandom > ${path.join(host.stateDir, 'garbage.img')} && chmod 644 ${path.join(host.stateDir, 'garbage.img')}`,
  ]);
  const database = connectPglite(schema);
  await database.migrate();
  const config = testConfig(host, image);
  const driver = new LibvirtDriver({
    db: database.db,
    clock: systemClock,
    config,
    consoleUrl: (ref) => `/console/${ref}`,
  });
  return {
    host,
    database,
    driver,
    config,
    image,
    async stop() {
      stopLabHost(host);
      await database.close();
    },
  };
}

/** The serial log of a server's guest (the driver writes it under the state folder). */
export function serialLog(lab: Lab, domain: string): string {
  const file = path.join(lab.config.stateDir, 'logs', `${domain}.serial.log`);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The `LAUNCHPAD-<name>` reports of a serial log (a login prompt may precede one on its line). */
export const markers = (log: string, name: string) =>
  log
    .split(/\r?\n/)
    .map((line) => line.slice(Math.max(0, line.indexOf('LAUNCHPAD-'))))
    .filter((line) => line.startsWith(`LAUNCHPAD-${name} `) || line === `LAUNCHPAD-${name}`);

/** Polls until `check` answers a value, for at most `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 120_000,
  everyMs = 500,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`Timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** The server once no task is under way on it. */
export const settle = (lab: Lab, ref: string, timeoutMs: number): Promise<ServerState> =>
  until(
    `${ref} at rest`,
    async () => {
      const state = await lab.driver.getServer(ref);
      return state && !state.task ? state : undefined;
    },
    timeoutMs,
  );

/** A command in a network's router namespace, inside the lab host: the view from the gateway. */
export const fromRouter = (lab: Lab, networkId: number, command: string, timeoutMs = 30_000) =>
  inBox(
    lab.host,
    `ip netns exec ${networkNames('lp', lab.config.stateDir, networkId).namespace} ${command}`,
    timeoutMs,
  );

/** What every SSH from a router to a guest passes: a new guest's key, and no waiting long. */
export const sshOptions =
  '-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=10 -o LogLevel=ERROR';

export { inBox };
