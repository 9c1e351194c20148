import { eq } from 'drizzle-orm';
import { providers } from '../db/catalog-schema';
import type { Db } from '../db/client';
import type { ProviderDriver } from './driver';

/** The drivers of this process by their kind (the `providers.driver` column). */
export type DriverMap = ReadonlyMap<string, ProviderDriver>;

export const driverMap = (drivers: readonly ProviderDriver[]): DriverMap =>
  new Map(drivers.map((driver) => [driver.kind, driver]));

/** The kind of driver that serves a provider (its `providers.driver`). */
export async function driverKindOf(db: Db, providerId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ driver: providers.driver })
    .from(providers)
    .where(eq(providers.id, providerId));
  return row?.driver;
}
