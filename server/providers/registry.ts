import type { ProviderDriver } from './driver';

/** The drivers of this process by their kind (the `providers.driver` column). */
export type DriverMap = ReadonlyMap<string, ProviderDriver>;

export const driverMap = (drivers: readonly ProviderDriver[]): DriverMap =>
  new Map(drivers.map((driver) => [driver.kind, driver]));
