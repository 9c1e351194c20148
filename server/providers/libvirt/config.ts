import { z } from '../../../src/api/contract/zod';
import { readConfigFile } from '../config-file';
import { parseCidr } from '../../../src/api/contract/ip';
import { sizeKeys } from '../../../src/api/contract/vms';

/**
 * The libvirt provider's configuration (`LIBVIRT_CONFIG`, a JSON file): its accounts, regions,
 * hosts, images and public pools. Paths are paths on the hosts.
 */

const ipv4 = z
  .string()
  .check(z.refine((v) => parseCidr(`${v}/32`) !== null, 'must be an IPv4 address'));
const cidr = z
  .string()
  .check(z.refine((v) => parseCidr(v) !== null, 'must be an IPv4 block a.b.c.d/p'));
const key = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and -'));

const hostSchema = z.object({
  key,
  /** libvirt's URI: `qemu:///system`, `qemu+ssh://root@host/system` … */
  uri: z.string().check(z.minLength(1)),
  /**
   * How a command runs on the host, as a prefix (none: this machine; `["ssh", "root@host"]`; in
   * tests `["nsenter", "-t", "<pid>", "-m", "-n", "--"]`): the network plumbing and the console
   * stream go through it.
   */
  run: z._default(z.array(z.string().check(z.minLength(1))), []),
  /**
   * The host's address on the network between the region's hosts, where the VXLAN tunnels that
   * carry each product network from host to host end. Needed when the region has several hosts.
   */
  tunnelIp: z.optional(ipv4),
});

const imageSchema = z.object({
  key,
  name: z.string().check(z.minLength(1)),
  /** The login the image is offered with (the user the seed creates). */
  username: z.string().check(z.regex(/^[a-z_][a-z0-9_-]{0,31}$/)),
  /** The base qcow2 disk every server's disk is an overlay of. */
  base: z.string().check(z.startsWith('/')),
  /** Direct kernel boot (the test image); without it the base disk boots itself. */
  kernel: z.optional(z.string().check(z.startsWith('/'))),
  initrd: z.optional(z.string().check(z.startsWith('/'))),
  cmdline: z.optional(z.string()),
});

const regionSchema = z.object({
  key,
  countryCode: z.string().check(z.regex(/^[A-Z]{2}$/)),
  countryName: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  city: z.string().check(z.minLength(1)),
  /** The public IPv4 block NATed to interfaces and used for SNAT (the product picks from it). */
  publicIpPool: cidr,
  /** The bridge on each host that reaches the public network, and its gateway. */
  uplink: z.object({
    bridge: z.string().check(z.minLength(1), z.maxLength(15)),
    gateway: ipv4,
    prefixLength: z.int().check(z.gte(8), z.lte(30)),
  }),
  /** The first host is the network host: it holds the networks' routers (DHCP, SNAT, NAT). */
  hosts: z.array(hostSchema).check(
    z.minLength(1),
    z.refine((hosts) => hosts.length === 1 || hosts.every((h) => h.tunnelIp), {
      error: 'every host needs a tunnelIp when a region has several',
    }),
  ),
  images: z.array(imageSchema).check(z.minLength(1)),
  sizes: z.array(z.enum(sizeKeys)).check(z.minLength(1)),
});

export const libvirtConfigSchema = z.object({
  providers: z
    .array(
      z.object({
        key,
        name: z.string().check(z.minLength(1)),
        regions: z.array(regionSchema).check(z.minLength(1)),
      }),
    )
    .check(z.minLength(1)),
  /** `kvm` on real hosts; `tcg` (software emulation) where KVM cannot run guests, as in CI. */
  acceleration: z._default(z.enum(['kvm', 'tcg']), 'kvm'),
  /** A short prefix of every name the driver makes on a host (bridges, namespaces, domains). */
  namePrefix: z._default(z.string().check(z.regex(/^[a-z]{2,4}$/)), 'lp'),
  /** Where disks, seeds and network state live on each host (a libvirt storage pool is made there). */
  stateDir: z._default(z.string().check(z.startsWith('/')), '/var/lib/launchpad'),
  /** How long a guest has to power off after the ACPI button before it is forced. */
  stopTimeoutSeconds: z._default(z.number().check(z.gte(1), z.lte(3600)), 60),
  /** How long a new guest has to boot (take its DHCP lease) before it is reported as failed. */
  bootTimeoutSeconds: z._default(z.number().check(z.gte(5), z.lte(3600)), 300),
});

export type LibvirtConfig = z.infer<typeof libvirtConfigSchema>;
export type LibvirtRegion = LibvirtConfig['providers'][number]['regions'][number];
export type LibvirtHostConfig = LibvirtRegion['hosts'][number];
export type LibvirtImage = LibvirtRegion['images'][number];

export function loadLibvirtConfig(file: string): LibvirtConfig {
  const config = readConfigFile('LIBVIRT_CONFIG', file, libvirtConfigSchema);
  const keys = new Set<string>();
  for (const provider of config.providers) {
    for (const region of provider.regions) {
      if (keys.has(region.key)) throw new Error(`LIBVIRT_CONFIG: region ${region.key} twice`);
      keys.add(region.key);
    }
  }
  return config;
}
