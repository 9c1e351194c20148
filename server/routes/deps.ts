import type { BackgroundTasks } from '../background';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Mailer } from '../mail/transport';

/** What every API route module receives. */
export interface ApiDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  clock: Clock;
  background: BackgroundTasks;
}

export interface RouteOptions {
  deps: ApiDeps;
}
