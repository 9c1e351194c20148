import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCidr } from '../../../src/api/contract/ip';
import { sizeKeys } from '../../../src/api/contract/vms';

/**
 * The libvirt provider's configuration (`LIBVIRT_CONFIG`, a JSON file): its accounts, regions,
 * hosts, images and public pools. Paths are paths on the hosts.
 */

const ipv4 = z.string().refine((v) => parseCidr(`${v}/32`) !== null, 'must be an IPv4 address');
const cidr = z.string().refine((v) => parseCidr(v) !== null, 'must be an IPv4 block a.b.c.d/p');
const key = z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and -');

const hostSchema = z.object({
  key,
  /** libvirt's URI: `qemu:///system`, `qemu+ssh://root@host/system` … */
  uri: z.string().min(1),
  /**
   * How a command runs on the host, as a prefix (none: this machine; `["ssh", "root@host"]`; in
   * tests `["nsenter", "-t", "<pid>", "-m", "-n", "--"]`): the network plumbing and the console
   * stream go through it.
   */
  run: z.array(z.string().min(1)).default([]),
  /**
   * The host's address on the network between the region's hosts, where the VXLAN tunnels that
   * carry each product network from host to host end. Needed when the region has several hosts.
   */
  tunnelIp: ipv4.optional(),
});

const imageSchema = z.object({
  key,
  name: z.string().min(1),
  /** The login the image is offered with (the user the seed creates). */
  username: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
  /** The base qcow2 disk every server's disk is an overlay of. */
  base: z.string().startsWith('/'),
  /** Direct kernel boot (the test image); without it the base disk boots itself. */
  kernel: z.string().startsWith('/').optional(),
  initrd: z.string().startsWith('/').optional(),
  cmdline: z.string().optional(),
});

const regionSchema = z.object({
  key,
  countryCode: z.string().regex(/^[A-Z]{2}$/),
  countryName: z.string().min(1),
  name: z.string().min(1),
  city: z.string().min(1),
  /** The public IPv4 block NATed to interfaces and used for SNAT (the product picks from it). */
  publicIpPool: cidr,
  /** The bridge on each host that reaches the public network, and its gateway. */
  uplink: z.object({
    bridge: z.string().min(1).max(15),
    gateway: ipv4,
    prefixLength: z.number().int().min(8).max(30),
  }),
  /** The first host is the network host: it holds the networks' routers (DHCP, SNAT, NAT). */
  hosts: z
    .array(hostSchema)
    .min(1)
    .refine((hosts) => hosts.length === 1 || hosts.every((h) => h.tunnelIp), {
      error: 'every host needs a tunnelIp when a region has several',
    }),
  images: z.array(imageSchema).min(1),
  sizes: z.array(z.enum(sizeKeys)).min(1),
});

export const libvirtConfigSchema = z.object({
  providers: z
    .array(z.object({ key, name: z.string().min(1), regions: z.array(regionSchema).min(1) }))
    .min(1),
  /** `kvm` on real hosts; `tcg` (software emulation) where KVM cannot run guests, as in CI. */
  acceleration: z.enum(['kvm', 'tcg']).default('kvm'),
  /** A short prefix of every name the driver makes on a host (bridges, namespaces, domains). */
  namePrefix: z
    .string()
    .regex(/^[a-z]{2,4}$/)
    .default('lp'),
  /** Where disks, seeds and network state live on each host (a libvirt storage pool is made there). */
  stateDir: z.string().startsWith('/').default('/var/lib/launchpad'),
  /** How long a guest has to power off after the ACPI button before it is forced. */
  stopTimeoutSeconds: z.number().min(1).max(3600).default(60),
  /** How long a new guest has to boot (take its DHCP lease) before it is reported as failed. */
  bootTimeoutSeconds: z.number().min(5).max(3600).default(300),
});

export type LibvirtConfig = z.infer<typeof libvirtConfigSchema>;
export type LibvirtRegion = LibvirtConfig['providers'][number]['regions'][number];
export type LibvirtHostConfig = LibvirtRegion['hosts'][number];
export type LibvirtImage = LibvirtRegion['images'][number];

export function loadLibvirtConfig(file: string): LibvirtConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`LIBVIRT_CONFIG ${file}: ${error instanceof Error ? error.message : error}`, {
      cause: error,
    });
  }
  const parsed = libvirtConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`LIBVIRT_CONFIG ${file}: ${problems.join('; ')}`);
  }
  const keys = new Set<string>();
  for (const provider of parsed.data.providers) {
    for (const region of provider.regions) {
      if (keys.has(region.key)) throw new Error(`LIBVIRT_CONFIG: region ${region.key} twice`);
      keys.add(region.key);
    }
  }
  return parsed.data;
}
