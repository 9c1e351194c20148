import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { inFlight } from '../../../src/api/in-flight';
import { preloadToasts } from '../../../src/components/toasts';
import { streamState } from '../../../src/live/stream-state';
import { theme } from '../../../src/theme';
import { useRealTimers } from './fake-timers';
import { server } from './msw';
import { loadEveryScreen } from './render';
import { isReducedMotion, resetViewport } from './viewport';

// The files of a worker share its modules and its happy-dom window (vite.config.ts): this file runs
// again before each of them, so what a file leaves in a module is put back here, and the helpers'
// own resets are called from here rather than from hooks of theirs, which only the first file to
// import them would get.

// Media queries that never match and sizes that never change: the DOM lays nothing out. Except
// reduced motion, which the theme is told to respect: Mantine's transitions (a modal's, a
// popover's) then draw their end state in one render, not in three over frames and a timer that
// a test waits for in real time.
theme.respectReducedMotion = true;
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: isReducedMotion(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
// Mantine's autosizing Textarea listens for web fonts loading.
Object.defineProperty(document, 'fonts', {
  configurable: true,
  value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
});
window.scrollTo = () => {};

// The app loads the toast outlet with the first toast; tests expect a toast in the same render.
beforeAll(() => preloadToasts());
beforeAll(() => loadEveryScreen());

// A file starts as a page just loaded would: no request under way (one a test left waiting for
// ever never ends), no live stream.
beforeAll(() => {
  while (inFlight.isLoading()) inFlight.end();
  streamState.set('off');
});

// Toasts live in a store of their own that outlives a test's render; nothing shows them between
// tests, so emptying it needs no act().
beforeEach(() => notifications.clean());

// msw's own 'error' strategy only logs, from where a throw does not reach the test: collect the
// requests nobody answered and fail the test that made them.
const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      const url = new URL(request.url);
      unhandled.push(`${request.method} ${url.pathname}${url.search}`);
    },
  }),
);

// A React warning or an unexpected error in a test is a failure, not noise.
const consoleError = console.error;
beforeAll(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleError(...args);
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  const missed = unhandled.splice(0);
  if (missed.length > 0) {
    throw new Error(`requests without an msw handler: ${[...new Set(missed)].join(', ')}`);
  }
});

// Before the afterEach above (the later hook runs first), as when each helper had its own hook.
afterEach(() => {
  useRealTimers();
  resetViewport();
});

afterAll(() => server.close());
