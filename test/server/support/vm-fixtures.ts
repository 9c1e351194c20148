import { and, asc, eq } from 'drizzle-orm';
import type { VmStatus } from '../../../src/api/contract/vms';
import {
  images,
  providerImages,
  providerOffers,
  providers,
  regions,
} from '../../../server/db/catalog-schema';
import type { Db } from '../../../server/db/client';
import { virtualMachines } from '../../../server/db/vm-schema';

/**
 * VM rows written straight into the database (for tests of other features that only need VMs to
 * exist). They use the first image the sim offers in Los Angeles, with a provider that offers it.
 * Tests of the VM API create VMs through the API instead.
 */
export async function insertVms(
  db: Db,
  rows: {
    companyId: number;
    teamId: number | null;
    name: string;
    status?: VmStatus;
    /** A size of the catalogue (1-6); the offer's smallest unless told. */
    configurationId?: number;
  }[],
) {
  const [offer] = await db
    .select({
      regionId: regions.id,
      imageId: images.id,
      username: images.username,
      providerId: providerOffers.providerId,
      configurationId: providerOffers.configurationId,
    })
    .from(regions)
    .innerJoin(images, eq(images.regionId, regions.id))
    .innerJoin(providerImages, eq(providerImages.imageId, images.id))
    .innerJoin(
      providerOffers,
      and(
        eq(providerOffers.providerId, providerImages.providerId),
        eq(providerOffers.regionId, regions.id),
      ),
    )
    .where(eq(regions.key, 'us-lax-1'))
    .orderBy(asc(images.id), asc(providerOffers.configurationId))
    .limit(1);
  if (!offer) throw new Error('The sim catalogue is not in the database');
  return db
    .insert(virtualMachines)
    .values(
      rows.map((row) => ({
        ...offer,
        companyId: row.companyId,
        teamId: row.teamId,
        name: row.name,
        status: row.status ?? 'Running',
        configurationId: row.configurationId ?? offer.configurationId,
        passwordSecret: 'not-a-real-secret',
        privateKeySecret: 'not-a-real-secret',
        publicKey: 'ssh-ed25519 AAAA test',
        allocatePublicIp: false,
      })),
    )
    .returning({ id: virtualMachines.id });
}

/** Catalogue ids by the sim's keys (region `us-lax-1`, image `ubuntu-24.04`, …). */
export async function catalogIds(db: Db, regionKey = 'us-lax-1', imageKey = 'ubuntu-24.04') {
  const [row] = await db
    .select({ regionId: regions.id, imageId: images.id })
    .from(regions)
    .innerJoin(images, and(eq(images.regionId, regions.id), eq(images.key, imageKey)))
    .where(eq(regions.key, regionKey));
  if (!row) throw new Error(`No ${imageKey} in ${regionKey}`);
  return row;
}

export async function providerIdOf(db: Db, key: string) {
  const [row] = await db.select({ id: providers.id }).from(providers).where(eq(providers.key, key));
  if (!row) throw new Error(`No provider ${key}`);
  return row.id;
}

/** A valid order's catalogue part: a Small Ubuntu 24.04 in Los Angeles at Sharktech. */
export async function smallUbuntuOrder(db: Db) {
  return {
    ...(await catalogIds(db)),
    configurationId: 3,
    providerId: await providerIdOf(db, 'sim-sharktech'),
  };
}
