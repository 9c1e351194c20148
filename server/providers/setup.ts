import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Metrics } from '../metrics/metrics';
import { syncCatalog } from './catalog-sync';
import type { ProviderDriver } from './driver';
import { loadLibvirtConfig } from './libvirt/config';
import { LibvirtDriver } from './libvirt/driver';
import { measuredDriver } from './measured-driver';
import { loadOpenStackConfig } from './openstack/config';
import { OpenStackDriver } from './openstack/driver';
import { driverMap, type DriverMap } from './registry';
import { defaultSimTimings, SimDriver, type SimTimings } from './sim/driver';

/** Where the product's console gateway serves an engine's VNC console, under the base path. */
export const CONSOLE_GATEWAY_PATH = 'console/';

/** Where the sim serves its console pages, under the base path (not under the API). */
export const SIM_CONSOLE_PATH = 'sim/console/';

const simTimingsFrom = (config: Config): SimTimings => ({
  ...defaultSimTimings,
  provisionMs: config.sim.provisionSeconds * 1000,
  powerMs: config.sim.actionSeconds * 1000,
  rebootMs: config.sim.actionSeconds * 1000,
  resizeMs: config.sim.resizeSeconds * 1000,
  deleteMs: Math.min(config.sim.actionSeconds, 2) * 1000,
  portMs: config.sim.actionSeconds * 1000,
});

/**
 * The provider drivers of this process, with the catalogue tables brought in line with them: the
 * embedded sim always, libvirt when `LIBVIRT_CONFIG` names its configuration, and OpenStack when
 * `OPENSTACK_CONFIG` names its.
 */
export async function setUpProviders(input: {
  db: Db;
  clock: Clock;
  config: Config;
  simTimings?: SimTimings;
  /** Where each driver call is counted and timed. */
  metrics?: Metrics;
}): Promise<{ drivers: DriverMap; sim: SimDriver }> {
  const { db, clock, config } = input;
  // A console page's address, to which the console route adds the viewer's ticket.
  const consolePage = (path: string) => () => `${config.basePath}${path}`;
  const sim = new SimDriver({
    db,
    clock,
    timings: input.simTimings ?? simTimingsFrom(config),
    consoleUrl: consolePage(SIM_CONSOLE_PATH),
  });
  const drivers: ProviderDriver[] = [sim];
  if (config.libvirtConfigFile) {
    drivers.push(
      new LibvirtDriver({
        db,
        clock,
        config: loadLibvirtConfig(config.libvirtConfigFile),
        consoleUrl: consolePage(CONSOLE_GATEWAY_PATH),
      }),
    );
  }
  if (config.openStackConfigFile) {
    drivers.push(
      new OpenStackDriver(loadOpenStackConfig(config.openStackConfigFile), {
        consoleUrl: consolePage(CONSOLE_GATEWAY_PATH),
      }),
    );
  }
  const { metrics } = input;
  const measured = metrics ? drivers.map((driver) => measuredDriver(driver, metrics)) : drivers;
  await syncCatalog(db, measured);
  return { drivers: driverMap(measured), sim };
}
