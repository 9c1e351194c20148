import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { preloadToasts } from '../../../src/components/toasts';
import { server } from './msw';

// jsdom lacks what Mantine measures with.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
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

afterAll(() => server.close());
