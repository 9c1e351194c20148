import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgBin } from './database';

/** A plain `pg_dump` file, gzipped or not, as text. */
export const readDump = (file: string) => {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};

/** Loads a plain dump into a PostgreSQL database with psql, stopping at the first error. */
export function loadIntoPostgres(url: string, dump: string) {
  const result = spawnSync(
    pgBin('psql'),
    ['--no-psqlrc', '--quiet', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '--dbname', url],
    { input: dump, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`psql: ${result.status}\n${result.stderr}`);
}

/**
 * Loads a plain dump into a new PGlite data folder (`DATA_DIR/pglite`). PGlite runs SQL but is
 * no psql: its statements go through `exec` as they are, and each `COPY … FROM stdin` block's
 * rows through `COPY … FROM '/dev/blob'`; psql's own commands (`\restrict`) are left out.
 */
export async function loadIntoPglite(dataDir: string, dump: string) {
  const client = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
  try {
    const lines = dump.split('\n');
    let statements: string[] = [];
    const flush = async () => {
      if (statements.some((line) => line.trim() && !line.startsWith('--'))) {
        await client.exec(statements.join('\n'));
      }
      statements = [];
    };
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i]!;
      const copy = /^(COPY .+) FROM stdin;$/.exec(line);
      if (copy) {
        await flush();
        const rows: string[] = [];
        for (i += 1; lines[i] !== '\\.'; i += 1) rows.push(lines[i]!);
        if (rows.length > 0) {
          await client.query(`${copy[1]} FROM '/dev/blob'`, [], {
            blob: new Blob([`${rows.join('\n')}\n`]),
          });
        }
      } else if (!line.startsWith('\\')) {
        statements.push(line);
      }
    }
    await flush();
  } finally {
    await client.close();
  }
}
