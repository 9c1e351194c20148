import { integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id } from './columns';

/**
 * What can be ordered: countries, regions, the providers serving them, images and the fixed sizes.
 * Synchronised from the provider drivers' catalogues at start (`server/providers/catalog-sync.ts`);
 * the sizes are the spec's fixed catalogue, seeded by a migration.
 */

export const countries = pgTable('countries', {
  id: id(),
  /** ISO 3166 alpha-2. */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
});

export const regions = pgTable('regions', {
  id: id(),
  /** The engine's own name of the region. */
  key: text('key').notNull().unique(),
  countryId: integer('country_id')
    .notNull()
    .references(() => countries.id),
  name: text('name').notNull(),
  city: text('city').notNull(),
  /** The public IPv4 block (`a.b.c.d/p`) whose host addresses the region hands out. */
  publicIpPool: text('public_ip_pool').notNull(),
});

/** A provider is one engine account; `driver` names the code that speaks to it. */
export const providers = pgTable('providers', {
  id: id(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  driver: text('driver').notNull(),
});

export const images = pgTable(
  'images',
  {
    id: id(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    key: text('key').notNull(),
    name: text('name').notNull(),
    /** The login the image creates. */
    username: text('username').notNull(),
  },
  (t) => [uniqueIndex('images_region_key').on(t.regionId, t.key)],
);

/** Spec section 3 "VM size catalogue": fixed ids 1-6, seeded by a migration. */
export const configurations = pgTable('configurations', {
  id: integer('id').primaryKey(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  cpu: integer('cpu').notNull(),
  ram: integer('ram').notNull(),
  disk: integer('disk').notNull(),
});

/** A provider offers an image in its region. */
export const providerImages = pgTable(
  'provider_images',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    imageId: integer('image_id')
      .notNull()
      .references(() => images.id),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.imageId] })],
);

/** A provider offers a size in a region. */
export const providerOffers = pgTable(
  'provider_offers',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id),
    configurationId: integer('configuration_id')
      .notNull()
      .references(() => configurations.id),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.regionId, t.configurationId] })],
);
