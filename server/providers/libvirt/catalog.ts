import type { Catalog } from '../driver';
import type { LibvirtConfig } from './config';

/** The catalogue the configuration describes: each provider offers its regions' images and sizes. */
export function libvirtCatalog(config: LibvirtConfig): Catalog {
  const regions = config.providers.flatMap((p) => p.regions);
  return {
    regions: regions.map((r) => ({
      key: r.key,
      countryCode: r.countryCode,
      countryName: r.countryName,
      name: r.name,
      city: r.city,
      publicIpPool: r.publicIpPool,
    })),
    images: regions.flatMap((r) =>
      r.images.map((i) => ({ regionKey: r.key, key: i.key, name: i.name, username: i.username })),
    ),
    providers: config.providers.map((p) => ({
      key: p.key,
      name: p.name,
      offers: p.regions.map((r) => ({
        regionKey: r.key,
        imageKeys: r.images.map((i) => i.key),
        sizeKeys: [...r.sizes],
      })),
    })),
  };
}
