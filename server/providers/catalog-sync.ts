import { eq } from 'drizzle-orm';
import {
  configurations,
  countries,
  images,
  providerImages,
  providerOffers,
  providers,
  regions,
} from '../db/catalog-schema';
import type { Db, Tx } from '../db/client';
import { publicIps } from '../db/network-schema';
import { numberToIp, parseCidr } from '../../src/api/contract/ip';
import type { ProviderDriver } from './driver';

/**
 * Brings the catalogue tables in line with what the drivers offer, at every start. Rows are
 * upserted by their keys, so ids stay stable for the VMs that use them; an offer the driver dropped
 * is withdrawn (nothing new can be ordered from it), while images and regions stay for the VMs
 * that were made from them.
 */
export async function syncCatalog(db: Db, drivers: readonly ProviderDriver[]): Promise<void> {
  const catalogs = await Promise.all(
    drivers.map(async (driver) => ({ driver, catalog: await driver.catalog() })),
  );
  await db.transaction(async (tx) => {
    const sizeIds = new Map(
      (
        await tx.select({ id: configurations.id, key: configurations.key }).from(configurations)
      ).map((c) => [c.key, c.id]),
    );
    for (const { driver, catalog } of catalogs) {
      const regionIds = new Map<string, number>();
      for (const region of catalog.regions) {
        const countryId = await upsertCountry(tx, region.countryCode, region.countryName);
        const [row] = await tx
          .insert(regions)
          .values({ key: region.key, countryId, name: region.name, city: region.city })
          .onConflictDoUpdate({
            target: regions.key,
            set: { countryId, name: region.name, city: region.city },
          })
          .returning({ id: regions.id });
        regionIds.set(region.key, row!.id);
        await seedPublicIpPool(tx, row!.id, region.publicIpPool);
      }
      const imageIds = new Map<string, number>();
      for (const image of catalog.images) {
        const regionId = regionIds.get(image.regionKey);
        if (regionId === undefined) throw new Error(`Image ${image.key} names an unknown region`);
        const [row] = await tx
          .insert(images)
          .values({ regionId, key: image.key, name: image.name, username: image.username })
          .onConflictDoUpdate({
            target: [images.regionId, images.key],
            set: { name: image.name, username: image.username },
          })
          .returning({ id: images.id });
        imageIds.set(`${image.regionKey}/${image.key}`, row!.id);
      }
      for (const provider of catalog.providers) {
        const [row] = await tx
          .insert(providers)
          .values({ key: provider.key, name: provider.name, driver: driver.kind })
          .onConflictDoUpdate({
            target: providers.key,
            set: { name: provider.name, driver: driver.kind },
          })
          .returning({ id: providers.id });
        const providerId = row!.id;
        await tx.delete(providerOffers).where(eq(providerOffers.providerId, providerId));
        await tx.delete(providerImages).where(eq(providerImages.providerId, providerId));
        for (const offer of provider.offers) {
          const regionId = regionIds.get(offer.regionKey);
          if (regionId === undefined) throw new Error(`${provider.key} offers an unknown region`);
          const offered = offer.sizeKeys.map((key) => {
            const configurationId = sizeIds.get(key);
            if (configurationId === undefined) throw new Error(`Unknown size ${key}`);
            return { providerId, regionId, configurationId };
          });
          if (offered.length > 0) await tx.insert(providerOffers).values(offered);
          const imageRows = offer.imageKeys.map((key) => {
            const imageId = imageIds.get(`${offer.regionKey}/${key}`);
            if (imageId === undefined) throw new Error(`${provider.key} offers an unknown image`);
            return { providerId, imageId };
          });
          if (imageRows.length > 0) await tx.insert(providerImages).values(imageRows);
        }
      }
    }
  });
}

async function upsertCountry(tx: Tx, code: string, name: string): Promise<number> {
  const [row] = await tx
    .insert(countries)
    .values({ code, name })
    .onConflictDoUpdate({ target: countries.code, set: { name } })
    .returning({ id: countries.id });
  return row!.id;
}

/** Every host address of the region's public block, once; addresses in use are never touched. */
async function seedPublicIpPool(tx: Tx, regionId: number, block: string): Promise<void> {
  const cidr = parseCidr(block);
  if (!cidr) throw new Error(`Bad public IP pool ${block}`);
  const first = cidr.prefix >= 31 ? cidr.network : cidr.network + 1;
  const last = cidr.prefix >= 31 ? cidr.network + cidr.size - 1 : cidr.network + cidr.size - 2;
  const addresses = Array.from({ length: last - first + 1 }, (_, i) => numberToIp(first + i));
  for (let start = 0; start < addresses.length; start += 1000) {
    await tx
      .insert(publicIps)
      .values(addresses.slice(start, start + 1000).map((address) => ({ regionId, address })))
      .onConflictDoNothing({ target: publicIps.address });
  }
}
