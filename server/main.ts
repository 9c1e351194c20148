import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { listenEarly } from './early-listener';
import { version } from './version';

/**
 * The server's process: its port opens first (early-listener.ts), so that liveness answers
 * while the rest loads and the database opens; start.ts does the rest.
 */
async function main() {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  // The first line: which release starts, before anything that could fail (migrations).
  logger.info({ version }, `Launchpad ${version} starting`);
  const listener = await listenEarly({
    port: config.port,
    host: config.host,
    basePath: config.basePath,
    version,
  });
  logger.info({ host: config.host, port: config.port }, 'listening while starting');
  const { start } = await import('./start');
  await start(config, logger, listener);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
