import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientErrorReport } from '../../src/api/contract/client-errors';
import { createErrorReporter, fitReport } from '../../src/api/error-reporter';

const ENDPOINT = 'http://localhost:3000/api/v1/logging';

/** A fetch that records each report and answers when told to. */
function fakeFetch() {
  const calls: { report: ClientErrorReport; init: RequestInit }[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const fetch = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ report: JSON.parse(String(init!.body)), init: init! });
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      init!.signal?.addEventListener('abort', abort);
      pending.push({
        resolve: () => resolve(new Response('{}', { status: 200 })),
        reject,
      });
    });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    calls,
    answerAll: () => pending.splice(0).forEach((p) => p.resolve()),
    failAll: () => pending.splice(0).forEach((p) => p.reject(new TypeError('Failed to fetch'))),
  };
}

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('the error reporter', () => {
  it('buffers events and sends them as one report, with the page path but no query string', async () => {
    window.history.replaceState(null, '', '/resetPassword?token=secret-token&id=4#x');
    const net = fakeFetch();
    const reporter = createErrorReporter({ endpoint: ENDPOINT, fetch: net.fetch });

    reporter.capture('error', new TypeError('x is undefined'), 'http://localhost:3000/app.js:1:9');
    reporter.capture('unhandledrejection', 'Request failed');
    expect(net.calls).toHaveLength(0);
    expect(reporter.buffered).toBe(2);

    const flushed = reporter.flush();
    net.answerAll();
    await flushed;

    expect(net.calls).toHaveLength(1);
    const { report, init } = net.calls[0]!;
    expect(init).toMatchObject({ method: 'POST', keepalive: false });
    expect(report.dropped).toBe(0);
    expect(report.events).toMatchObject([
      {
        type: 'error',
        message: 'TypeError: x is undefined',
        source: 'http://localhost:3000/app.js:1:9',
        url: 'http://localhost:3000/resetPassword',
      },
      { type: 'unhandledrejection', message: 'Request failed' },
    ]);
    expect(report.events[0]!.stack).toContain('x is undefined');
    expect(JSON.stringify(report)).not.toContain('secret-token');
    expect(reporter.buffered).toBe(0);
  });

  it('keeps every event at sample rate 1, and a share of them at a lower rate', () => {
    const draws = [0.999, 0.2, 0.7, 0.4];
    const all = createErrorReporter({
      endpoint: ENDPOINT,
      fetch: fakeFetch().fetch,
      random: () => 0.999,
    });
    const half = createErrorReporter({
      endpoint: ENDPOINT,
      fetch: fakeFetch().fetch,
      sampleRate: 0.5,
      random: () => draws.shift()!,
    });
    for (let i = 0; i < 4; i += 1) {
      all.capture('error', new Error(`e${i}`));
      half.capture('error', new Error(`e${i}`));
    }
    expect(all.buffered).toBe(4);
    expect(half.buffered).toBe(2);
  });

  it('sends a full buffer of 20 at once, and counts what does not fit as dropped', async () => {
    const net = fakeFetch();
    const reporter = createErrorReporter({ endpoint: ENDPOINT, fetch: net.fetch });

    for (let i = 0; i < 20; i += 1) reporter.capture('error', new Error(`first ${i}`));
    expect(net.calls).toHaveLength(1);
    expect(net.calls[0]!.report.events).toHaveLength(20);

    // While that send is under way the buffer fills again; the rest is dropped, not queued.
    for (let i = 0; i < 25; i += 1) reporter.capture('error', new Error(`second ${i}`));
    expect(reporter.buffered).toBe(20);
    expect(net.calls).toHaveLength(1);

    const first = reporter.flush();
    net.answerAll();
    await first;
    const second = reporter.flush();
    net.answerAll();
    await second;
    expect(net.calls).toHaveLength(2);
    expect(net.calls[1]!.report.events).toHaveLength(20);
    expect(net.calls[1]!.report.events[0]!.message).toBe('Error: second 0');
    expect(net.calls[1]!.report.dropped).toBe(5);
  });

  it('gives up on a send after 5 seconds, and sends later events afterwards', async () => {
    vi.useFakeTimers();
    const net = fakeFetch();
    const reporter = createErrorReporter({ endpoint: ENDPOINT, fetch: net.fetch });
    reporter.capture('error', new Error('one'));

    const flushed = reporter.flush();
    await vi.advanceTimersByTimeAsync(4999);
    expect((net.calls[0]!.init.signal as AbortSignal).aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((net.calls[0]!.init.signal as AbortSignal).aborted).toBe(true);
    await flushed;

    reporter.capture('error', new Error('two'));
    const next = reporter.flush();
    net.answerAll();
    await next;
    expect(net.calls.map((call) => call.report.events[0]!.message)).toEqual([
      'Error: one',
      'Error: two',
    ]);
  });

  it('never loops on its own failures', async () => {
    const net = fakeFetch();
    const reporter = createErrorReporter({ endpoint: ENDPOINT, fetch: net.fetch });
    const stop = reporter.install(window);
    try {
      reporter.capture('error', new Error('boom'));
      const flushed = reporter.flush();
      net.failAll();
      await expect(flushed).resolves.toBeUndefined();
      // The failed send neither came back as an event nor was queued again.
      expect(reporter.buffered).toBe(0);
      await reporter.flush();
      expect(net.calls).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('listens for uncaught errors and rejections, flushes on a timer and when the page hides', async () => {
    vi.useFakeTimers();
    const net = fakeFetch();
    const reporter = createErrorReporter({
      endpoint: ENDPOINT,
      fetch: net.fetch,
      flushIntervalMs: 10_000,
    });
    const stop = reporter.install(window);
    try {
      window.dispatchEvent(
        new ErrorEvent('error', {
          error: new RangeError('too deep'),
          message: 'too deep',
          filename: 'http://localhost:3000/assets/index.js',
          lineno: 3,
          colno: 7,
        }),
      );
      const rejection = Object.assign(new Event('unhandledrejection'), {
        reason: new Error('no answer'),
      });
      window.dispatchEvent(rejection);
      expect(reporter.buffered).toBe(2);

      await vi.advanceTimersByTimeAsync(10_000);
      expect(net.calls).toHaveLength(1);
      expect(net.calls[0]!.report.events).toMatchObject([
        {
          type: 'error',
          message: 'RangeError: too deep',
          source: 'http://localhost:3000/assets/index.js:3:7',
        },
        { type: 'unhandledrejection', message: 'Error: no answer' },
      ]);
      net.answerAll();
      await vi.advanceTimersByTimeAsync(0);

      reporter.capture('error', new Error('on the way out'));
      window.dispatchEvent(new Event('pagehide'));
      expect(net.calls).toHaveLength(2);
      expect(net.calls[1]!.init.keepalive).toBe(true);
      net.answerAll();
    } finally {
      stop();
    }
    // Uninstalled: nothing is listened to any more.
    window.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), { reason: new Error('later') }),
    );
    expect(reporter.buffered).toBe(0);
  });

  it('shortens stacks, then leaves events out, to keep a report under the size limit', () => {
    const big = (i: number) => ({
      type: 'error' as const,
      message: `m${i}`,
      stack: 'at x (y.js:1:1)\n'.repeat(300),
    });
    const report = { events: Array.from({ length: 20 }, (_, i) => big(i)), dropped: 0 };

    const fitted = fitReport(report, 30_000);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(30_000);
    expect(fitted.events).toHaveLength(20);
    expect(fitted.events[0]!.stack!.length).toBeLessThan(report.events[0]!.stack.length);

    const tiny = fitReport(report, 500);
    expect(tiny.events.length).toBeLessThan(20);
    expect(tiny.dropped).toBe(20 - tiny.events.length);
  });
});
