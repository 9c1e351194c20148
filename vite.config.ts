/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

export default defineConfig({
  // Relative asset URLs: the server injects <base href> with the runtime BASE_PATH.
  base: './',
  plugins: [tanstackRouter({ target: 'react', autoCodeSplitting: true }), react()],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/console': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // noVNC waits at the top level of one of its modules.
    target: 'es2022',
    rolldownOptions: {
      // The console and, apart, the noVNC page of a server's screen.
      input: { main: 'index.html', console: 'console.html' },
      output: {
        // Libraries change less often than the console: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
            },
            // Only the noVNC page loads it.
            { name: 'novnc', test: /node_modules[\\/]@novnc[\\/]/, priority: 4 },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/, priority: 2 },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
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
          environment: 'jsdom',
          setupFiles: ['test/component/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
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
          name: 'libvirt',
          include: ['test/libvirt/**/*.test.ts'],
          environment: 'node',
          hookTimeout: 300_000,
          testTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
