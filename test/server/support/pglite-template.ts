import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectPglite } from '../../../server/db/client';
import * as schema from '../../../server/schema';

declare module 'vitest' {
  interface ProvidedContext {
    /** A migrated PGlite data directory (a tar file) every test database starts from. */
    pgliteTemplate: string;
  }
}

/**
 * The server project's global set-up: the schema migrated once into an embedded cluster, dumped to
 * a file. Each test file's database loads it instead of creating a cluster and migrating it, the
 * larger part of a server test file's start on this machine.
 */
export default async function setup(project: TestProject) {
  // Also when the suite runs on PostgreSQL: the import command's test runs on the embedded
  // database either way.
  const dir = mkdtempSync(path.join(tmpdir(), 'launchpad-pglite-'));
  const database = connectPglite(schema);
  await database.migrate();
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, new Uint8Array(await (await database.dump()).arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
