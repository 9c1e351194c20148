import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { syncCatalog } from './catalog-sync';
import { driverMap, type DriverMap } from './registry';
import { defaultSimTimings, SimDriver, type SimTimings } from './sim/driver';

/** Where the sim serves its console pages, under the base path (not under the API). */
export const SIM_CONSOLE_PATH = 'sim/console/';

export const simTimingsFrom = (config: Config): SimTimings => ({
  ...defaultSimTimings,
  provisionMs: config.sim.provisionSeconds * 1000,
  powerMs: config.sim.actionSeconds * 1000,
  rebootMs: config.sim.actionSeconds * 1000,
  resizeMs: config.sim.resizeSeconds * 1000,
  deleteMs: Math.min(config.sim.actionSeconds, 2) * 1000,
  portMs: config.sim.actionSeconds * 1000,
});

/**
 * The provider drivers of this process, with the catalogue tables brought in line with them. Only
 * the embedded sim exists so far; a real engine's driver joins the list here.
 */
export async function setUpProviders(input: {
  db: Db;
  clock: Clock;
  config: Config;
  simTimings?: SimTimings;
}): Promise<{ drivers: DriverMap; sim: SimDriver }> {
  const { db, clock, config } = input;
  const sim = new SimDriver({
    db,
    clock,
    timings: input.simTimings ?? simTimingsFrom(config),
    secret: config.appSecret,
    consoleUrl: (ticket) => `${config.basePath}${SIM_CONSOLE_PATH}${ticket}`,
  });
  const drivers = [sim];
  await syncCatalog(db, drivers);
  return { drivers: driverMap(drivers), sim };
}
