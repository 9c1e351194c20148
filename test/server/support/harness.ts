import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { buildApp, loggerOptions, type App } from '../../../server/app';
import type { EarlyListener } from '../../../server/early-listener';
import { createBackgroundTasks } from '../../../server/background';
import type { Clock } from '../../../server/clock';
import { loadConfig, type Config } from '../../../server/config';
import { connectPostgres, type Database } from '../../../server/db/client';
import * as schema from '../../../server/schema';
import { createSecretBox } from '../../../server/domain/secrets';
import { operations } from '../../../server/jobs/schema';
import { createReconciler, type Reconciler } from '../../../server/jobs/worker';
import { createMailer } from '../../../server/mail/transport';
import { createMetrics } from '../../../server/metrics/metrics';
import { pooledDatabase } from './pglite-pool';
import type { DriverMap } from '../../../server/providers/registry';
import { setUpProviders } from '../../../server/providers/setup';
import type { EventStreamCaps } from '../../../server/domain/events/streams';
import type { TxtLookup } from '../../../server/domain/reseller/settings-domains';
import type { SimDriver, SimTimings } from '../../../server/providers/sim/driver';
import { startedReadiness, type Readiness } from '../../../server/readiness';

/** Fixed durations on the test clock, so tests know when each task ends. */
export const TEST_SIM_TIMINGS: SimTimings = {
  provisionMs: 5_000,
  powerMs: 2_000,
  rebootMs: 3_000,
  resizeMs: 4_000,
  deleteMs: 1_000,
  networkMs: 1_000,
  portMs: 2_000,
  ipMs: 1_000,
  jitter: 0,
};

/**
 * An engine that ends every task by the reconciler's first poll of it (a second on): for worlds whose
 * tests wait for operations to end (`finishOperations`) but never look at them half-way, five times
 * fewer polls of a VM's build. An operation is still under way until the clock moves and the
 * reconciler runs, exactly as with TEST_SIM_TIMINGS.
 */
export const QUICK_SIM_TIMINGS: SimTimings = {
  provisionMs: 1_000,
  powerMs: 1_000,
  rebootMs: 1_000,
  resizeMs: 1_000,
  deleteMs: 1_000,
  networkMs: 1_000,
  portMs: 1_000,
  ipMs: 1_000,
  jitter: 0,
};

/** A clock the test moves by hand. */
export function testClock(start = new Date('2026-11-21T12:00:00Z')) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

/**
 * A database for one test file: an embedded cluster as the template left it (support/pglite-pool.ts),
 * or a fresh database on the PostgreSQL server of DATABASE_URL (the same suite then runs against
 * real PostgreSQL). `drop` is called once the file is done with it.
 */
async function freshDatabase(): Promise<{
  database: Database;
  /** The PostgreSQL address of this database; undefined on PGlite. */
  url: string | undefined;
  drop: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const { database, release } = await pooledDatabase();
    return { database, url: undefined, drop: release };
  }
  const name = `launchpad_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = connectPostgres(schema, target.toString());
  return {
    database,
    url: target.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // An autovacuum worker busy on the database cannot be ended by a role that is not a
        // superuser; it finishes soon, so the drop is tried again for a few seconds.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return;
          } catch (error) {
            if (attempt >= 10) throw error;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestServer {
  app: App;
  config: Config;
  database: Database;
  /** Set on PostgreSQL: another process (or pool) can connect to the same database with it. */
  databaseUrl: string | undefined;
  clock: ReturnType<typeof testClock>;
  outboxDir: string;
  /** Messages written to the outbox so far, oldest first, as raw .eml text. */
  outbox(): string[];
  /** Waits for the work done after an answer (e-mails); throws what failed in it. */
  settled(): Promise<void>;
  drivers: DriverMap;
  sim: SimDriver;
  /** The reconciler; tests drive it by hand (it does not run on its own). */
  reconciler: Reconciler;
  /** The process's start and shutdown as the readiness check reads them. */
  readiness: Readiness;
  /**
   * Runs the reconciler and moves the clock on a second at a time until no operation is left
   * under way, as a running server would over real time (passing over the seconds in which
   * nothing is due). Bounded: throws if work never ends within `maxSeconds` of the clock.
   */
  finishOperations(maxSeconds?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    clock?: ReturnType<typeof testClock>;
    /** Where the server, the reconciler and the mailer log, with the production logger settings. */
    logStream?: Writable;
    logLevel?: string;
    /** A folder holding a built console (index.html and assets) to serve. */
    consoleDir?: string;
    eventHeartbeatMs?: number;
    eventStreamCaps?: Partial<EventStreamCaps>;
    /** A start not yet over (the readiness check); started by default. */
    readiness?: Readiness;
    /** The process's own figures in /metrics (they start monitors that outlive the server). */
    processMetrics?: boolean;
    /** A port opened before the app is built, as main.ts opens it; handed over by the test. */
    listener?: EarlyListener;
    /** The DNS TXT records a reseller's new domain is checked against; default: none anywhere. */
    txtLookup?: TxtLookup;
    /** How long the engine's tasks take on the test clock; TEST_SIM_TIMINGS by default. */
    simTimings?: SimTimings;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'launchpad-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret',
    PUBLIC_URL: 'http://console.test/',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT: '1000',
    ...env,
  });
  const { database, url: databaseUrl, drop } = await freshDatabase();
  await database.migrate();
  const outboxDir = path.join(dataDir, 'outbox');
  const level = options.logLevel ?? 'debug';
  const mailer = createMailer({
    smtpUrl: undefined,
    from: config.mailFrom,
    outboxDir,
    logger: options.logStream ? pino({ level }, options.logStream) : { info: () => {} },
  });
  const clock = options.clock ?? testClock();
  const metrics = createMetrics({ processMetrics: options.processMetrics });
  metrics.track({ database: () => database.load() });
  const { drivers, sim } = await setUpProviders({
    db: database.db,
    clock,
    config,
    simTimings: options.simTimings ?? TEST_SIM_TIMINGS,
    metrics,
  });
  const reconciler = createReconciler({
    db: database.db,
    clock,
    drivers,
    secrets: createSecretBox(config.appSecret),
    log: options.logStream
      ? pino({ level }, options.logStream).child({ component: 'reconciler' })
      : { info: () => {}, warn: () => {}, error: () => {} },
    workerId: 'test-worker',
    metrics,
  });
  const readiness = options.readiness ?? startedReadiness();
  const backgroundErrors: unknown[] = [];
  const background = createBackgroundTasks((error) => backgroundErrors.push(error));
  const app = await buildApp({
    config,
    db: database.db,
    mailer,
    clock,
    background,
    drivers,
    jobs: reconciler,
    listen: database.listen,
    eventHeartbeatMs: options.eventHeartbeatMs,
    eventStreamCaps: options.eventStreamCaps,
    consoleDir: options.consoleDir,
    readiness,
    metrics,
    logger: options.logStream && { ...loggerOptions(level), stream: options.logStream },
    listener: options.listener,
    // Tests never ask the real DNS.
    txtLookup: options.txtLookup ?? (async () => []),
  });
  await app.ready();
  return {
    app,
    config,
    database,
    databaseUrl,
    clock,
    outboxDir,
    drivers,
    sim,
    reconciler,
    readiness,
    async finishOperations(maxSeconds = 120) {
      const end = clock.now().getTime() + maxSeconds * 1000;
      for (;;) {
        await reconciler.drain();
        const open = await database.db
          .select({ runAfter: operations.runAfter, lockedUntil: operations.lockedUntil })
          .from(operations)
          .where(inArray(operations.status, ['pending', 'running']));
        if (open.length === 0) return;
        // The seconds in which nothing is due (an engine's retry backed off, a lease held) are
        // passed over at once: a pass in them would claim nothing. The clock still lands on the
        // whole second a pass a second would have found the next operation due in.
        const now = clock.now().getTime();
        const due = Math.min(
          ...open.map((op) =>
            Math.max(op.runAfter.getTime(), op.lockedUntil ? op.lockedUntil.getTime() + 1 : 0),
          ),
        );
        const step = Math.max(1000, Math.ceil((due - now) / 1000) * 1000);
        if (now + step > end) {
          clock.advance(1000);
          throw new Error(`operations still under way after ${maxSeconds} s`);
        }
        clock.advance(step);
      }
    },
    outbox() {
      if (!existsSync(outboxDir)) return [];
      return readdirSync(outboxDir)
        .sort()
        .map((f) => readFileSync(path.join(outboxDir, f), 'utf8'));
    },
    async settled() {
      await background.idle();
      if (backgroundErrors.length > 0) throw backgroundErrors[0];
    },
    async close() {
      await app.close();
      // On PGlite the cluster goes back to the pool; a test may have closed it to simulate an
      // outage.
      if (databaseUrl) await database.close().catch(() => {});
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (backgroundErrors.length > 0) throw backgroundErrors[0];
    },
  };
}
