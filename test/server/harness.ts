import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { buildApp, loggerOptions, type App } from '../../server/app';
import { createBackgroundTasks } from '../../server/background';
import type { Clock } from '../../server/clock';
import { loadConfig, type Config } from '../../server/config';
import { connectPglite, connectPostgres, type Database } from '../../server/db/client';
import { createMailer } from '../../server/mail/transport';

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
 * A database for one test file: in-memory PGlite, or a fresh database on the PostgreSQL server of
 * DATABASE_URL (the same suite then runs against real PostgreSQL).
 */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = connectPglite();
    return { database, drop: async () => {} };
  }
  const name = `launchpad_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = connectPostgres(target.toString());
  return {
    database,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestServer {
  app: App;
  config: Config;
  database: Database;
  clock: ReturnType<typeof testClock>;
  outboxDir: string;
  /** Messages written to the outbox so far, oldest first, as raw .eml text. */
  outbox(): string[];
  /** Waits for the work done after an answer (e-mails); throws what failed in it. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    clock?: ReturnType<typeof testClock>;
    /** Where the server and the mailer log, with the production logger settings. */
    logStream?: Writable;
    logLevel?: string;
    /** A folder holding a built console (index.html and assets) to serve. */
    consoleDir?: string;
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
  const { database, drop } = await freshDatabase();
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
  const backgroundErrors: unknown[] = [];
  const background = createBackgroundTasks((error) => backgroundErrors.push(error));
  const app = await buildApp({
    config,
    db: database.db,
    mailer,
    clock,
    background,
    consoleDir: options.consoleDir,
    logger: options.logStream && { ...loggerOptions(level), stream: options.logStream },
  });
  await app.ready();
  return {
    app,
    config,
    database,
    clock,
    outboxDir,
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
      // A test may have closed the database already to simulate an outage.
      await database.close().catch(() => {});
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (backgroundErrors.length > 0) throw backgroundErrors[0];
    },
  };
}
