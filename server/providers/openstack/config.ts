import { z } from '../../../src/api/contract/zod';
import { readConfigFile } from '../config-file';
import { parseCidr } from '../../../src/api/contract/ip';
import { sizeKeys } from '../../../src/api/contract/vms';

/**
 * The OpenStack provider's configuration (`OPENSTACK_CONFIG`, a JSON file): one entry per cloud
 * account (a provider of the catalogue), the product regions it serves and, in each, what of the
 * cloud the product uses: its external network, its images and a flavor for each size. Several
 * clouds may serve the same region as separate providers.
 */

const key = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'lowercase letters, digits and -'));
const nonEmpty = z.string().check(z.minLength(1));

/** An application credential (preferred: revocable, scoped to one project) or a password. */
const authSchema = z.union([
  z.object({
    applicationCredentialId: nonEmpty,
    applicationCredentialSecret: nonEmpty,
  }),
  z.object({
    username: nonEmpty,
    password: nonEmpty,
    projectName: nonEmpty,
    userDomainName: z._default(nonEmpty, 'Default'),
    projectDomainName: z._default(nonEmpty, 'Default'),
  }),
]);

const imageSchema = z.object({
  key,
  name: nonEmpty,
  /** The login the image is offered with (the user cloud-init creates). */
  username: z.string().check(z.regex(/^[a-z_][a-z0-9_-]{0,31}$/)),
  /** The Glance image, by name or id. */
  glanceImage: nonEmpty,
});

const regionSchema = z.object({
  key,
  countryCode: z.string().check(z.regex(/^[A-Z]{2}$/)),
  countryName: nonEmpty,
  name: nonEmpty,
  city: nonEmpty,
  /**
   * The floating IP range the product picks public addresses from: within the external network's
   * subnet (the product's chosen address is asked of Neutron as it is).
   */
  publicIpPool: z
    .string()
    .check(z.refine((v) => parseCidr(v) !== null, 'must be an IPv4 block a.b.c.d/p')),
  /** The external network (name or id): routers' gateways and floating IPs. */
  externalNetwork: nonEmpty,
  /** The VLAN or overlay type of the product's networks is the cloud's default. */
  images: z.array(imageSchema).check(z.minLength(1)),
  /** The flavor (name or id) of each size the cloud offers here. */
  flavors: z.partialRecord(z.enum(sizeKeys), nonEmpty),
});

export const openStackConfigSchema = z.object({
  providers: z
    .array(
      z.object({
        key,
        name: nonEmpty,
        /** Keystone v3: `https://keystone.example.com:5000/v3`. */
        authUrl: z.url(),
        auth: authSchema,
        /** The cloud's own region name in its service catalogue (`RegionOne`). */
        cloudRegion: z._default(nonEmpty, 'RegionOne'),
        /** Which endpoints of the catalogue to call. */
        interface: z._default(z.enum(['public', 'internal', 'admin']), 'public'),
        regions: z.array(regionSchema).check(z.minLength(1)),
      }),
    )
    .check(z.minLength(1)),
  /** How long one call to a cloud's API may take before the cloud counts as unreachable. */
  requestTimeoutSeconds: z._default(z.number().check(z.gte(1), z.lte(300)), 30),
});

export type OpenStackConfig = z.infer<typeof openStackConfigSchema>;
export type OpenStackProvider = OpenStackConfig['providers'][number];
export type OpenStackRegion = OpenStackProvider['regions'][number];
export type OpenStackAuth = OpenStackProvider['auth'];

export function loadOpenStackConfig(file: string): OpenStackConfig {
  const config = readConfigFile('OPENSTACK_CONFIG', file, openStackConfigSchema);
  const keys = new Set<string>();
  for (const provider of config.providers) {
    if (keys.has(provider.key)) throw new Error(`OPENSTACK_CONFIG: provider ${provider.key} twice`);
    keys.add(provider.key);
  }
  return config;
}
