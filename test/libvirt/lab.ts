import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../../server/clock';
import { connectPglite, type Database } from '../../server/db/client';
import { libvirtConfigSchema, type LibvirtConfig } from '../../server/providers/libvirt/config';
import { LibvirtDriver } from '../../server/providers/libvirt/driver';
import {
  inBox,
  requireTools,
  startLabHost,
  stopLabHost,
  type LabHost,
} from '../../scripts/libvirt/lab-host';

export const imageDir = path.resolve(
  process.env.LIBVIRT_IMAGE_DIR ??
    path.join(import.meta.dirname, '../../data/libvirt/images/launchpad-busybox'),
);

export interface TestImage {
  kernel: string;
  initrd: string;
  base: string;
  cmdline: string;
  username: string;
}

export function testImage(): TestImage {
  const file = path.join(imageDir, 'image.json');
  if (!existsSync(file)) {
    throw new Error(`No test image at ${imageDir}: run \`npm run libvirt:image\` first`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as TestImage;
}

export function missingTools(): string[] {
  return requireTools();
}

/** The provider configuration of a lab host: one region, the test image, and a broken one. */
export function labConfig(
  lab: LabHost,
  image: TestImage,
  extra: Partial<LibvirtConfig> = {},
): LibvirtConfig {
  return libvirtConfigSchema.parse({
    acceleration: 'tcg',
    stateDir: lab.stateDir,
    stopTimeoutSeconds: 20,
    bootTimeoutSeconds: 120,
    providers: [
      {
        key: 'lab',
        name: 'Lab Cloud',
        regions: [
          {
            key: 'lab-1',
            countryCode: 'NL',
            countryName: 'Netherlands',
            name: 'Lab',
            city: 'Amsterdam',
            publicIpPool: lab.publicIpPool,
            uplink: lab.uplink,
            hosts: [{ key: 'box', uri: lab.uri, run: lab.run }],
            images: [
              { key: 'busybox', name: 'Launchpad test image', ...image },
              // Boots a kernel with an initramfs that is not one: the guest panics.
              {
                key: 'no-boot',
                name: 'Broken image',
                username: image.username,
                base: image.base,
                kernel: image.kernel,
                initrd: path.join(lab.stateDir, 'garbage.img'),
                cmdline: `${image.cmdline} root=/dev/nowhere`,
              },
              {
                key: 'missing',
                name: 'Missing image',
                username: 'nobody',
                base: '/nonexistent/base.qcow2',
              },
            ],
            sizes: ['micro', 'extraSmall', 'extraLarge'],
          },
        ],
      },
    ],
    ...extra,
  });
}

export interface Lab {
  host: LabHost;
  database: Database;
  driver: LibvirtDriver;
  config: LibvirtConfig;
  image: TestImage;
  stop(): Promise<void>;
}

export async function startLab(): Promise<Lab> {
  const image = testImage();
  const baseDir = mkdtempSync(path.join(tmpdir(), 'lplab-'));
  // QEMU runs as libvirt-qemu: it must be able to walk down to the disks.
  chmodSync(baseDir, 0o755);
  const host = await startLabHost({ baseDir });
  execFileSync('sh', [
    '-c',
    `head -c 4096 /dev/urandom > ${path.join(host.stateDir, 'garbage.img')} && chmod 644 ${path.join(host.stateDir, 'garbage.img')}`,
  ]);
  const database = connectPglite();
  await database.migrate();
  const config = labConfig(host, image);
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

export const markers = (log: string, name: string) =>
  log
    .split('\n')
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

export { inBox };
