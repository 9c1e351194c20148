import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { importBody, importKinds, type ImportKind } from '../src/api/contract/imports';

const USAGE = `Usage: npm run import -- <${importKinds.join('|')}> <file.json>

Upserts the items of the file by externalId, all of them or none, exactly like
POST /api/v1/imports/<kind>. The file holds {"items": [...]} or a bare array.
Prints the result as JSON; on bad items, one line per error ("#<index> <field>: <message>").
Exit codes: 0 applied, 1 rejected (nothing written) or failed, 2 bad arguments or unreadable file.

It uses the server's configuration: DATABASE_URL, or the embedded database under DATA_DIR;
SMTP_URL, or the mail outbox under DATA_DIR.
With the embedded database, the server must NOT be running at the same time (PGlite is
single-process): stop it first, or use the API with OPERATOR_TOKEN instead.`;

/** Where the command reads its settings and writes its result, errors and logs. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable;
  /** The logger's destination (the process's stderr by default). */
  log?: DestinationStream;
}

const write = (stream: Writable, text: string) => stream.write(`${text}\n`);

/** A problem with the command line or the file, before anything touches the database. */
class UsageError extends Error {}

async function readItems(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return Array.isArray(json) ? json : (json as { items?: unknown } | null)?.items;
}

/** The kind and the items named by the command line. */
async function readInput(argv: string[]): Promise<{ kind: ImportKind; items: unknown }> {
  const [kind, file, ...rest] = argv;
  if (!kind || !file || rest.length > 0) throw new UsageError('Expected a kind and a file.');
  if (!(importKinds as readonly string[]).includes(kind)) {
    throw new UsageError(`Unknown kind "${kind}".`);
  }
  return { kind: kind as ImportKind, items: await readItems(path.resolve(file)) };
}

/**
 * `npm run import -- <kind> <file>`: answers the exit code. Its process is scripts/import.ts; the
 * test calls it in-process as well.
 */
export async function importCommand(argv: string[], io: CommandIo): Promise<number> {
  let input: Awaited<ReturnType<typeof readInput>>;
  try {
    input = await readInput(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    write(io.stderr, `${error.message}\n\n${USAGE}`);
    return 2;
  }
  const { kind, items } = input;
  const body = importBody.safeParse({ items });
  if (!body.success) {
    for (const issue of body.error.issues) write(io.stderr, `items: ${issue.message}`);
    return 1;
  }

  return apply(kind, body.data.items, io);
}

/** Opens the database the server uses, applies the items and waits for the e-mails. */
async function apply(kind: ImportKind, items: unknown[], io: CommandIo): Promise<number> {
  // Loaded here so that a usage error answers at once, without the database driver.
  const [
    { default: pino },
    { createBackgroundTasks },
    { systemClock },
    { loadConfig },
    { connectPglite, connectPostgres },
    { runImport },
    { HttpError },
    { createMailer },
    schema,
  ] = await Promise.all([
    import('pino'),
    import('../server/background'),
    import('../server/clock'),
    import('../server/config'),
    import('../server/db/client'),
    import('../server/domain/imports/run-import'),
    import('../server/http-error'),
    import('../server/mail/transport'),
    import('../server/schema'),
  ]);

  const config = loadConfig(io.env);
  // Logs go to stderr: stdout carries only the result, for scripts to read.
  const logger = pino(
    { level: config.logLevel },
    io.log ?? pino.destination({ dest: 2, sync: true }),
  );
  const database = config.databaseUrl
    ? connectPostgres(schema, config.databaseUrl)
    : connectPglite(schema, path.join(config.dataDir, 'pglite'));
  try {
    await database.migrate();
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      logger,
    });
    let mailFailed = false;
    const background = createBackgroundTasks((err, label) => {
      mailFailed = true;
      logger.error({ err }, `${label} failed`);
    });
    const deps = { config, db: database.db, mailer, clock: systemClock, background, log: logger };
    const outcome = await runImport(deps, kind, items);
    await background.idle();
    if ('errors' in outcome) {
      for (const { index, field, message } of outcome.errors) {
        write(io.stderr, `#${index} ${field}: ${message}`);
      }
      return 1;
    }
    write(io.stdout, JSON.stringify(outcome.result, null, 2));
    if (mailFailed) {
      write(io.stderr, 'The import was applied, but some activation e-mails failed (above).');
      return 1;
    }
    return 0;
  } catch (error) {
    // A 409 when another import wrote the same records meanwhile: its message says what to do.
    if (!(error instanceof HttpError)) throw error;
    write(io.stderr, error.message);
    return 1;
  } finally {
    await database.close();
  }
}
