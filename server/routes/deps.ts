import type { BackgroundTasks } from '../background';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { EventStreams } from '../domain/events/streams';
import type { TxtLookup } from '../domain/reseller/settings-domains';
import type { SecretBox } from '../domain/secrets';
import type { JobQueue } from '../jobs/operations';
import type { Mailer } from '../mail/transport';
import type { DriverMap } from '../providers/registry';
import type { Readiness } from '../readiness';

/** What every API route module receives. */
export interface ApiDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  clock: Clock;
  background: BackgroundTasks;
  drivers: DriverMap;
  secrets: SecretBox;
  /** Wakes the reconciler after an operation is written. */
  jobs: JobQueue;
  /** The process's live event streams. */
  streams: EventStreams;
  /** How far the process is from taking traffic (started, shutting down). */
  readiness: Readiness;
  /** The DNS TXT records a reseller's new domain is checked against (tests answer their own). */
  txtLookup: TxtLookup;
}

export interface RouteOptions {
  deps: ApiDeps;
}
