import type { Catalog, CatalogImage, CatalogRegion } from './driver';

/** What a provider's configuration file says of a region (libvirt, OpenStack). */
interface ConfiguredRegion extends CatalogRegion {
  images: Omit<CatalogImage, 'regionKey'>[];
}

/**
 * The catalogue a configuration file describes: each provider offers its regions' images and
 * sizes. A region served by several providers is described once (by the first).
 */
export function configuredCatalog<R extends ConfiguredRegion>(
  providers: readonly { key: string; name: string; regions: readonly R[] }[],
  sizeKeysOf: (region: R) => string[],
): Catalog {
  const regions = new Map<string, R>();
  for (const p of providers)
    for (const r of p.regions) if (!regions.has(r.key)) regions.set(r.key, r);
  return {
    regions: [...regions.values()].map((r) => ({
      key: r.key,
      countryCode: r.countryCode,
      countryName: r.countryName,
      name: r.name,
      city: r.city,
      publicIpPool: r.publicIpPool,
    })),
    images: [...regions.values()].flatMap((r) =>
      r.images.map((i) => ({ regionKey: r.key, key: i.key, name: i.name, username: i.username })),
    ),
    providers: providers.map((p) => ({
      key: p.key,
      name: p.name,
      offers: p.regions.map((r) => ({
        regionKey: r.key,
        imageKeys: r.images.map((i) => i.key),
        sizeKeys: sizeKeysOf(r),
      })),
    })),
  };
}
