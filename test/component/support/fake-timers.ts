import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

declare global {
  var jest: { advanceTimersByTime: (ms: number) => void } | undefined;
}

/**
 * Fake timers that user-event and Testing Library can live with. Testing Library drains its act
 * scope with a `setTimeout(0)` that it only advances when it sees *jest* fake timers; vitest's are
 * the same clock under another name, so it is shown one.
 */
export function useFakeTimersForUser() {
  vi.useFakeTimers();
  globalThis.jest = { advanceTimersByTime: (ms) => vi.advanceTimersByTime(ms) };
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** Back to the real clock after a test (setup.ts, after each test of every file). */
export function useRealTimers() {
  vi.useRealTimers();
  globalThis.jest = undefined;
}
