import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The embedded cluster the build made beside the compiled server (`dist/server/`,
 * scripts/build/pglite-template.js), with initdb and the build's migrations done, when `dataDir`
 * holds no cluster yet: starting from it instead of an empty folder spares a first start PGlite's
 * initdb, most of its time. From the source (tsx, the tests) there is none, and PGlite runs initdb.
 */
export function pgliteTemplate(dataDir: string): Blob | undefined {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-template.tar.gz');
  if (!existsSync(file)) return undefined;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return undefined;
  return new Blob([readFileSync(file)]);
}
