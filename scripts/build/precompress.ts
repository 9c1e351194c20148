import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|woff)$/;
/** Below this, the compressed file and its headers weigh about as much as the original. */
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function compressBeside(file: string) {
  const content = await readFile(file);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
  };
  await writeFile(`${file}.br`, await brotli(content, { params }));
  await writeFile(`${file}.gz`, await gzipped(content, { level: 9 }));
}

/**
 * Brotli (best) and gzip (best) copies beside every text asset of the build, once, so that the
 * server sends them by content negotiation without compressing anything per request. The files
 * are compressed side by side on libuv's threads: brotli's best is seconds of CPU in all. The
 * bundle's own files start as soon as they are written, while the main thread draws the sign-in
 * card (Vite runs the plugins' `closeBundle` one after the other); the files written after the
 * bundle (login.html) follow once they are there.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  let failed = false;
  let bundleCompressed: Promise<unknown> = Promise.resolve();
  let bundleFiles = new Set<string>();
  const worthIt = (file: string) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES;
  return {
    name: 'launchpad:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildEnd(error) {
      failed = error !== undefined;
    },
    writeBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .map((name) => path.join(outDir, name))
        .filter(worthIt);
      bundleFiles = new Set(files);
      bundleCompressed = Promise.all(files.map(compressBeside));
      // Awaited in closeBundle; until then a failure is not an unhandled rejection.
      bundleCompressed.catch(() => {});
    },
    async closeBundle() {
      // A failed build wrote nothing to compress: its own error is the one to show.
      if (failed) return;
      await bundleCompressed;
      const rest = [...filesUnder(outDir)].filter(
        (file) => !bundleFiles.has(file) && worthIt(file),
      );
      await Promise.all(rest.map(compressBeside));
    },
  };
}
