import path from 'node:path';
import type { Logger } from 'pino';
import { buildApp, defaultConsoleDir, loggerOptions } from './app';
import { bootstrap } from './bootstrap';
import type { Config } from './config';
import type { EarlyListener } from './early-listener';
import { connectPglite, connectPostgres } from './db/client';
import { pgliteTemplate } from './db/pglite-template';
import * as schema from './schema';
import { systemClock } from './clock';
import { createSecretBox } from './domain/secrets';
import { createWebhookDispatcher } from './domain/webhooks/dispatcher';
import { createReconciler } from './jobs/worker';
import { createMailer } from './mail/transport';
import { createMetrics } from './metrics/metrics';
import { setUpProviders } from './providers/setup';
import { createReadiness } from './readiness';
import { gracefulShutdown } from './shutdown';
import { flushTraces } from './telemetry/flush-traces';

/**
 * The server's start once its port is open (main.ts): the database opened and migrated, the
 * catalogue synced, the app built on the early listener's server and handed the requests, then
 * the background workers. Its modules are most of the server's: they load while the port answers.
 */
export async function start(config: Config, logger: Logger, listener: EarlyListener) {
  const database = config.databaseUrl
    ? connectPostgres(schema, config.databaseUrl, config.databasePoolSize)
    : connectPglite(
        schema,
        path.join(config.dataDir, 'pglite'),
        pgliteTemplate(path.join(config.dataDir, 'pglite')),
      );
  const readiness = createReadiness();
  await database.migrate();
  readiness.migrated();
  logger.info({ database: database.kind }, 'migrations applied');

  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger,
  });
  await bootstrap({ db: database.db, config, logger });
  // One registry for the app, the reconciler and the drivers, with the process's own figures.
  const metrics = createMetrics({ processMetrics: true });
  metrics.track({ database: () => database.load() });
  const { drivers } = await setUpProviders({
    db: database.db,
    clock: systemClock,
    config,
    metrics,
  });
  readiness.catalogueSynced();
  const reconciler = createReconciler({
    db: database.db,
    clock: systemClock,
    drivers,
    secrets: createSecretBox(config.appSecret),
    log: logger.child({ component: 'reconciler' }),
    metrics,
  });
  const webhooks = createWebhookDispatcher({
    db: database.db,
    clock: systemClock,
    secrets: createSecretBox(config.appSecret),
    mailer,
    allowPrivate: config.webhookAllowPrivate,
    publicUrl: config.publicUrl,
    listen: database.listen,
    log: logger.child({ component: 'webhooks' }),
  });

  const app = await buildApp({
    config,
    db: database.db,
    mailer,
    logger: loggerOptions(config.logLevel),
    consoleDir: defaultConsoleDir,
    drivers,
    jobs: reconciler,
    listen: database.listen,
    readiness,
    metrics,
    listener,
  });

  const shutdown = gracefulShutdown({
    readiness,
    workers: { reconciler, webhooks },
    closeServer: () => app.close(),
    closeDatabase: () => database.close(),
    log: logger,
    delayMs: config.shutdown.delayMs,
    timeoutMs: config.shutdown.timeoutMs,
    exit: (code) => void flushTraces().finally(() => process.exit(code)),
  });
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.ready();
  listener.handOver(app.initialConfig);
  reconciler.start();
  await webhooks.start();
  logger.info(`Launchpad is running at ${config.publicUrl}`);
}
