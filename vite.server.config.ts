import { cpSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;
const outDir = path.join(root, 'dist/server');

/**
 * The migrations are read at run time from beside the code that runs them (server/db/client.ts):
 * from dist/server/migrations once built, so that dist/ and the production dependencies are all a
 * server needs.
 */
const copyMigrations = (): Plugin => ({
  name: 'launchpad:copy-migrations',
  apply: 'build',
  writeBundle() {
    cpSync(path.join(root, 'server/db/migrations'), path.join(outDir, 'migrations'), {
      recursive: true,
    });
  },
});

/**
 * The server, and the import command an operator runs beside it, as JavaScript for plain `node`
 * (`npm run build` runs it after the console's build, scripts/build/build.js). A config of its own:
 * the console's plugins (router, React, the built pages) have nothing to do here. The packages of
 * node_modules stay imports (an SSR build leaves them external), so that the production
 * dependencies are those of package.json.
 */
export default defineConfig({
  root,
  publicDir: false,
  // The server reads its settings from the environment at run time, never from .env files at build.
  envDir: false,
  plugins: [copyMigrations()],
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    target: 'node20.19',
    // Stack traces name the TypeScript (`node --enable-source-maps`).
    sourcemap: true,
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // main.js is server/entry.ts: tracing first when OTEL_* asks for it, then server/main.ts.
      input: { main: 'server/entry.ts', import: 'scripts/import.ts' },
      output: {
        // Every file beside main.js: server/db/client.ts and server/app.ts find the migrations
        // and the console from the folder of the file their code lands in.
        entryFileNames: '[name].js',
        chunkFileNames: '[name]-[hash].js',
      },
    },
  },
});
