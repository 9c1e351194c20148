import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  libvirtConfigSchema,
  type LibvirtConfig,
  type LibvirtImage,
} from '../../server/providers/libvirt/config';
import type { LabHost } from './lab-host';

/** What `npm run libvirt:image` writes beside the image it builds. */
export interface BuiltImage {
  kernel: string;
  initrd: string;
  base: string;
  cmdline: string;
  username: string;
}

export const defaultImageDir = path.resolve(
  import.meta.dirname,
  '../../data/libvirt/images/launchpad-busybox',
);

export function readBuiltImage(dir = process.env.LIBVIRT_IMAGE_DIR ?? defaultImageDir): BuiltImage {
  const file = path.join(path.resolve(dir), 'image.json');
  if (!existsSync(file)) {
    throw new Error(`No image at ${path.resolve(dir)}: run \`npm run libvirt:image\` first`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as BuiltImage;
}

/** A provider with one region on a lab host, offering the built image (and any `extraImages`). */
export function labProviderConfig(
  lab: LabHost,
  image: BuiltImage,
  options: { extraImages?: LibvirtImage[]; overrides?: Partial<LibvirtConfig> } = {},
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
            countryCode: 'IS',
            countryName: 'Iceland',
            name: 'Lab',
            city: 'Reykjavik',
            publicIpPool: lab.publicIpPool,
            uplink: lab.uplink,
            hosts: [{ key: 'box', uri: lab.uri, run: lab.run }],
            images: [
              { key: 'busybox', name: 'Launchpad test image', ...image },
              ...(options.extraImages ?? []),
            ],
            sizes: ['micro', 'extraSmall', 'small', 'extraLarge'],
          },
        ],
      },
    ],
    ...options.overrides,
  });
}
