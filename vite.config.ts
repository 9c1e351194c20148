/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
// With their extensions, as Vite's native config loader (its coming default) asks.
import { consoleStart, START_MODULE } from './scripts/build/console-start.ts';
import { firstScreenPreload } from './scripts/build/first-screen-preload.ts';
import { loginPage } from './scripts/build/login-page.ts';
import { precompress } from './scripts/build/precompress.ts';
import { mantineStylesWithComponents } from './scripts/build/mantine-styles-with-components.ts';
import { signedInCore } from './scripts/build/signed-in-core.ts';

/** What the signed-in screens share: the libraries' components, the shared components, queries and contracts. */
const signedInShared =
  /node_modules[\\/](@mantine|@tanstack|@tabler|@floating-ui)[\\/]|src[\\/](components|queries|api)[\\/]/;
/**
 * Drawn by one screen each, so kept with it: the one-time code's slots on /mfa (before sign-in),
 * the colour picker of the reseller's settings.
 */
const screenOnly = /[\\/](PinInput|ColorInput|ColorPicker)[\\/]/;
/** A module the signed-in screens share, in one of their two shared files. */
const inSharedFile = (id: string) => signedInShared.test(id) && !screenOnly.test(id);
/** The console's start: a file of its own, named by the page beside the entry. */
const start = consoleStart();
/** What the signed-in layout, the Dashboard and the lists draw. */
const core = signedInCore();

export default defineConfig({
  // Relative asset URLs: the server injects <base href> with the runtime BASE_PATH.
  base: './',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: {
        // The sign-in screen comes with the first download, in the same file: on a phone every
        // further request is a round trip before the form shows.
        splitBehavior: ({ routeId }) => (routeId === '/login' ? [] : undefined),
        // A screen's loader comes with its component, after sign-in: the queries and contracts it
        // reads stay out of the first download.
        defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    start.plugin,
    core.plugin,
    mantineStylesWithComponents(),
    firstScreenPreload(),
    loginPage(),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/console': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the console supports knows modulepreload: no polyfill to download first.
    modulePreload: { polyfill: false },
    // precompress() writes the compressed files; sizing them once more here costs a second.
    reportCompressedSize: false,
    // noVNC waits at the top level of one of its modules.
    target: 'es2022',
    rolldownOptions: {
      // The console, its start (which the console's entry imports after a turn of the event
      // loop) and, apart, the noVNC page of a server's screen.
      input: { main: 'index.html', start: START_MODULE, console: 'console.html' },
      // Only the re-exports the console imports are compiled (Tabler's icons are 6,000 files).
      experimental: { lazyBarrel: true },
      // Tabler's index is still resolved whole (rolldown says so at each build): rewriting the
      // imports would not reach the router's split route modules, which import it too.
      checks: { largeBarrelModules: false },
      output: {
        codeSplitting: {
          groups: [
            // Only the noVNC page loads it.
            { name: 'novnc', test: /node_modules[\\/]@novnc[\\/]/, priority: 5 },
            // The entry: the session check, sent as soon as this small file has run.
            { name: 'initial', tags: ['$initial'], test: start.inEntry, priority: 4 },
            // What the first screen needs to draw, in one file instead of dozens (each request
            // costs a round trip on a phone's network), downloaded beside the entry.
            {
              name: 'start',
              tags: ['$initial'],
              // Only the console's: not the HTML entries themselves, nor what the noVNC page needs
              // (it would run the console's start-up code by importing the chunk).
              test: (id: string) => !/@novnc|console-page|modulepreload-polyfill|\.html$/.test(id),
              priority: 3,
            },
            // After sign-in: the shared parts of the signed-in screens (the libraries' components,
            // the shared components, queries and contracts) in two files, what the layout, the
            // Dashboard and the lists draw, and what only the other screens add (the forms'
            // toolkit, dialogs, steppers); each screen keeps its own.
            {
              name: 'app',
              test: (id: string) => inSharedFile(id) && core.inCore(id),
              priority: 2,
            },
            {
              name: 'forms',
              test: inSharedFile,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    // A worker per core: Vitest's default leaves one to its main process, which mostly waits.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['test/component/**/*.test.{ts,tsx}'],
          // happy-dom rather than jsdom: the same tests in two thirds of the time (decision 0018).
          environment: 'happy-dom',
          setupFiles: ['test/component/support/setup.ts'],
          // The files share their workers' modules and happy-dom window: each render makes its own
          // router and query client, and setup.ts (run again before each file) puts back what a
          // file leaves in a module. Importing the console, Mantine and happy-dom once per worker
          // instead of once per file halves the project's time (decision 0016).
          isolate: false,
          // The first file of a worker loads every screen in a hook (support/render.tsx).
          hookTimeout: 30_000,
          // A screen's first render under React's development build takes seconds on a busy
          // two-core machine: one test over vitest's 5 s default spilled into the next ones.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          // With the embedded engine's driver conformance suite: it runs on the server's tables.
          include: ['test/server/**/*.test.ts', 'test/providers/sim.test.ts'],
          environment: 'node',
          globalSetup: ['test/server/support/pglite-template.ts'],
          // The files share their workers' modules: each file's own server, database and clock
          // hold its state, and importing the server's modules once per worker instead of once
          // per file halves the project's time.
          isolate: false,
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 240_000,
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The built server as an operator runs it: its start, restarts, backups and upgrades.
          name: 'production',
          include: ['test/production/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 240_000,
          testTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'libvirt',
          include: ['test/libvirt/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 300_000,
          testTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'openstack',
          include: ['test/openstack/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 300_000,
          testTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
