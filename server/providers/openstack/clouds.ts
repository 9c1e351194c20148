import { ProviderRejection, ProviderUnavailable } from '../driver';
import { ComputeClient } from './compute';
import type { OpenStackConfig, OpenStackProvider, OpenStackRegion } from './config';
import { toProviderError } from './http';
import { ImageClient } from './image';
import { KeystoneSession } from './keystone';
import { NetworkClient } from './network';

/** One configured cloud account (a provider of the catalogue) and its services' clients. */
export interface Cloud {
  provider: OpenStackProvider;
  session: KeystoneSession;
  compute: ComputeClient;
  network: NetworkClient;
  image: ImageClient;
  /** false once the cloud refused its diagnostics (a policy for administrators only). */
  diagnostics: boolean;
  /** The account's open security group, once looked for (see ports.ts). */
  openGroup?: Promise<string>;
}

/** Every resource the driver makes carries the client token of the call that made it. */
export const tokenTag = (clientToken: string) => `lp-${clientToken}`.slice(0, 60);
/** And a product network's resources on each cloud, the network's own tag. */
export const networkTag = (id: string) => `lp-net-${id}`.slice(0, 60);
/** And everything, the product region it is made for. */
const REGION_TAG = 'lp-region-';
export const regionTag = (regionKey: string) => `${REGION_TAG}${regionKey}`;

export const splitRef = (ref: string): [string, string] => {
  const at = ref.indexOf('/');
  if (at <= 0) throw new ProviderRejection(`Not an OpenStack reference: ${ref}`);
  return [ref.slice(0, at), ref.slice(at + 1)];
};

/**
 * The configured clouds, by provider key, and how references and regions lead to them: a server
 * or a port is `<provider>/<uuid>`, a product network `<region>/<id>` (made on every cloud that
 * serves the region).
 */
export class Clouds {
  private readonly byKey = new Map<string, Cloud>();

  constructor(config: OpenStackConfig) {
    for (const provider of config.providers) {
      const session = new KeystoneSession(provider, config.requestTimeoutSeconds * 1000);
      this.byKey.set(provider.key, {
        provider,
        session,
        compute: new ComputeClient(session),
        network: new NetworkClient(session),
        image: new ImageClient(session),
        diagnostics: true,
      });
    }
  }

  all(): Cloud[] {
    return [...this.byKey.values()];
  }

  get(providerKey: string): Cloud {
    const cloud = this.byKey.get(providerKey);
    if (!cloud) throw new ProviderRejection(`No OpenStack provider ${providerKey}`);
    return cloud;
  }

  /** The cloud of a server's or a port's reference, and the resource's id in it. */
  ofRef(ref: string): [Cloud, string] {
    const [key, id] = splitRef(ref);
    return [this.get(key), id];
  }

  serving(regionKey: string): Cloud[] {
    const clouds = this.all().filter((c) => c.provider.regions.some((r) => r.key === regionKey));
    if (clouds.length === 0) throw new ProviderRejection(`No OpenStack cloud serves ${regionKey}`);
    return clouds;
  }
}

export function regionOf(cloud: Cloud, regionKey: string): OpenStackRegion {
  const region = cloud.provider.regions.find((r) => r.key === regionKey);
  if (!region) throw new ProviderRejection(`${cloud.provider.name} does not serve ${regionKey}`);
  return region;
}

/** The region a resource was made for, by its tags (the cloud's first, for an untagged one). */
export function regionKeyOfTags(cloud: Cloud, tags: string[]): string {
  const tagged = tags.find((t) => t.startsWith(REGION_TAG));
  return tagged ? tagged.slice(REGION_TAG.length) : cloud.provider.regions[0]!.key;
}

/** Runs a step against the cloud: what fails comes out as a refusal or as unavailability. */
export async function guard<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ProviderRejection) throw error;
    if (error instanceof ProviderUnavailable) {
      throw new ProviderUnavailable(`Could not ${what}: ${error.message}`);
    }
    throw toProviderError(error, `Could not ${what}`);
  }
}
