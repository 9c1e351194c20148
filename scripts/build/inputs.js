// Plain JavaScript, not TypeScript: `npm start` reads it with plain node, before anything is built
// and with no devDependency (no tsx) needed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..', '..');

/** Written by the build, last: the digest of the inputs it built from. */
export const stampFile = path.join(root, 'dist', 'server', 'build-inputs.sha256');

/**
 * Everything `npm run build` reads, apart from node_modules (which follows package-lock.json): the
 * console's and the server's sources, the build's own code and configuration, the pages. A file
 * that is not there counts too (an .env file added or removed changes the digest).
 */
const INPUTS = [
  'src',
  'server',
  'scripts/build',
  'scripts/import.ts',
  'index.html',
  'console.html',
  'vite.config.ts',
  'vite.server.config.ts',
  'postcss.config.cjs',
  'tsconfig.json',
  'tsconfig.server.json',
  'package.json',
  'package-lock.json',
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
];

function* filesUnder(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield relative;
    return;
  }
  for (const name of readdirSync(full)) yield* filesUnder(path.join(relative, name));
}

/** SHA-256 of the inputs' paths and contents, in a fixed order: the same sources, the same digest. */
export function inputsDigest() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    const files = [...filesUnder(input)].sort();
    hash.update(`${input}\0${files.length}\0`);
    for (const file of files) {
      hash.update(`${file}\0`);
      hash.update(readFileSync(path.join(root, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** Whether dist/ holds a console and a server to run. */
export const hasBuild = () =>
  existsSync(path.join(root, 'dist', 'index.html')) &&
  existsSync(path.join(root, 'dist', 'server', 'main.js'));

/** The digest the last complete build wrote, or undefined. */
export const builtDigest = () =>
  hasBuild() && existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
