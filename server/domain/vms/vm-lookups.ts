import { and, asc, eq, exists, sql } from 'drizzle-orm';
import {
  vmMessages,
  type CombinedRegion,
  type Configuration,
  type LookupItem,
  type RegionDetails,
  type SizeKey,
} from '../../../src/api/contract/vms';
import {
  configurations,
  countries,
  images,
  providerImages,
  providerOffers,
  providers,
  regions,
} from '../../db/catalog-schema';
import type { Db } from '../../db/client';
import { notFound } from '../../http-error';
import type { Caller } from '../tenancy/access';
import { findVisibleVm } from './vm-access';

/**
 * The create cascade's lookups (spec section 7): only what can be ordered now, i.e. what some
 * provider offers. Unknown ids answer 404.
 */

/** A region some provider offers sizes in: one the create cascade lists. */
export const regionIsOffered = (db: Db) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(providerOffers)
      .where(eq(providerOffers.regionId, regions.id)),
  );

const countryRegion = (country: string, city: string) => `${country} - ${city}`;

export async function listCountries(db: Db): Promise<LookupItem[]> {
  return db
    .selectDistinct({ id: countries.id, name: countries.name })
    .from(countries)
    .innerJoin(regions, eq(regions.countryId, countries.id))
    .where(regionIsOffered(db))
    .orderBy(asc(countries.name));
}

async function offeredRegions(db: Db, countryId?: number) {
  return db
    .select({
      id: regions.id,
      name: regions.name,
      city: regions.city,
      countryId: countries.id,
      country: countries.name,
    })
    .from(regions)
    .innerJoin(countries, eq(countries.id, regions.countryId))
    .where(
      and(regionIsOffered(db), countryId === undefined ? undefined : eq(countries.id, countryId)),
    )
    .orderBy(asc(countries.name), asc(regions.city));
}

async function requireCountry(db: Db, countryId: number) {
  const [country] = await db
    .select({ id: countries.id })
    .from(countries)
    .where(eq(countries.id, countryId));
  if (!country) throw notFound('Country not found');
}

/** A country's regions, named by city and region. */
export async function listRegions(db: Db, countryId: number): Promise<LookupItem[]> {
  await requireCountry(db, countryId);
  const rows = await offeredRegions(db, countryId);
  return rows.map((r) => ({ id: r.id, name: `${r.city} (${r.name})` }));
}

/** A country's cities: one per region, named by the city alone. */
export async function listCities(db: Db, countryId: number): Promise<LookupItem[]> {
  await requireCountry(db, countryId);
  const rows = await offeredRegions(db, countryId);
  return rows.map((r) => ({ id: r.id, name: r.city }));
}

export async function listCombinedRegions(db: Db): Promise<CombinedRegion[]> {
  const rows = await offeredRegions(db);
  return rows.map((r) => ({ id: r.id, countryRegion: countryRegion(r.country, r.city) }));
}

export async function getRegion(db: Db, regionId: number): Promise<RegionDetails> {
  const [region] = await db
    .select({
      id: regions.id,
      name: regions.name,
      city: regions.city,
      countryId: countries.id,
      country: countries.name,
    })
    .from(regions)
    .innerJoin(countries, eq(countries.id, regions.countryId))
    .where(eq(regions.id, regionId));
  if (!region) throw notFound(vmMessages.regionNotFound);
  return { ...region, countryRegion: countryRegion(region.country, region.city) };
}

/** The images of a region that some provider offers there. */
export async function listImages(db: Db, regionId: number): Promise<LookupItem[]> {
  await getRegion(db, regionId);
  return db
    .selectDistinct({ id: images.id, name: images.name })
    .from(images)
    .innerJoin(providerImages, eq(providerImages.imageId, images.id))
    .where(eq(images.regionId, regionId))
    .orderBy(asc(images.name));
}

/** The images a VM can be reinstalled from: those its provider offers in its region. */
export async function listVmImages(
  db: Db,
  caller: Caller,
  regionId: number,
  vmId: number,
): Promise<LookupItem[]> {
  const { vm } = await findVisibleVm(db, caller, vmId);
  if (vm.regionId !== regionId) throw notFound(vmMessages.regionNotFound);
  return db
    .select({ id: images.id, name: images.name })
    .from(images)
    .innerJoin(
      providerImages,
      and(eq(providerImages.imageId, images.id), eq(providerImages.providerId, vm.providerId)),
    )
    .where(eq(images.regionId, vm.regionId))
    .orderBy(asc(images.name));
}

const configurationColumns = {
  id: configurations.id,
  key: sql<SizeKey>`${configurations.key}`,
  name: configurations.name,
  cpu: configurations.cpu,
  ram: configurations.ram,
  disk: configurations.disk,
};

/** The fixed size catalogue, smallest first. */
export async function listConfigurations(db: Db): Promise<Configuration[]> {
  return db.select(configurationColumns).from(configurations).orderBy(asc(configurations.cpu));
}

async function requireImageInRegion(db: Db, regionId: number, imageId: number) {
  await getRegion(db, regionId);
  const [image] = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, imageId), eq(images.regionId, regionId)));
  if (!image) throw notFound(vmMessages.imageNotFound);
}

/**
 * The sizes offered in a region by any of its providers. Whether a provider offers one with the
 * chosen image is the next step's question (`listProviders`), which may answer none.
 */
export async function listRegionConfigurations(
  db: Db,
  regionId: number,
  imageId: number,
): Promise<Configuration[]> {
  await requireImageInRegion(db, regionId, imageId);
  return db
    .selectDistinct(configurationColumns)
    .from(configurations)
    .innerJoin(providerOffers, eq(providerOffers.configurationId, configurations.id))
    .where(eq(providerOffers.regionId, regionId))
    .orderBy(asc(configurations.cpu));
}

/** The sizes a VM can be moved to: those its provider offers in its region (upgrade modal). */
export async function listVmConfigurations(
  db: Db,
  caller: Caller,
  regionId: number,
  vmId: number,
): Promise<Configuration[]> {
  const { vm } = await findVisibleVm(db, caller, vmId);
  if (vm.regionId !== regionId) throw notFound(vmMessages.regionNotFound);
  return db
    .select(configurationColumns)
    .from(configurations)
    .innerJoin(providerOffers, eq(providerOffers.configurationId, configurations.id))
    .where(
      and(eq(providerOffers.regionId, vm.regionId), eq(providerOffers.providerId, vm.providerId)),
    )
    .orderBy(asc(configurations.cpu));
}

/** The providers offering the image and the size in the region; possibly none. */
export async function listProviders(
  db: Db,
  regionId: number,
  query: { imageId: number; configurationId: number },
): Promise<LookupItem[]> {
  await requireImageInRegion(db, regionId, query.imageId);
  return db
    .select({ id: providers.id, name: providers.name })
    .from(providers)
    .innerJoin(
      providerOffers,
      and(
        eq(providerOffers.providerId, providers.id),
        eq(providerOffers.regionId, regionId),
        eq(providerOffers.configurationId, query.configurationId),
      ),
    )
    .innerJoin(
      providerImages,
      and(eq(providerImages.providerId, providers.id), eq(providerImages.imageId, query.imageId)),
    )
    .orderBy(asc(providers.name));
}
