// Run by the build (build.js), beside the console's build: an embedded cluster with initdb and
// the migrations done, dumped to the file named by the first argument. A server whose data folder
// is empty starts from it (server/db/pglite-template.ts) instead of running initdb, which is most
// of a first start's time on PGlite; the migrations made after the build are applied at start as
// on any database.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const [out] = process.argv.slice(2);
if (!out) throw new Error('Usage: node scripts/build/pglite-template.js <out.tar.gz>');
// The same extensions as the server's (server/db/client.ts).
const client = new PGlite({ extensions: { pg_trgm } });
await migrate(drizzle(client), {
  migrationsFolder: path.resolve(import.meta.dirname, '../../server/db/migrations'),
});
const dump = await client.dumpDataDir('gzip');
await client.close();
writeFileSync(out, Buffer.from(await dump.arrayBuffer()));
