import {
  CLIENT_ERROR_BODY_LIMIT,
  CLIENT_ERROR_BUFFER,
  clientErrorLimits,
  type ClientErrorEvent,
  type ClientErrorReport,
  type ClientErrorType,
} from './contract/client-errors';

/**
 * Sends the browser's unhandled errors to `POST /logging` (spec section 7: sample rate 1, a buffer
 * of 20 events, a 5 second send time-out). It talks to the network with plain `fetch` rather than
 * the API client on purpose: reporting must work before sign-in and while the app is broken, must
 * not count as a request in the loading bar, must not react to a 401, and must survive the page
 * going away (`keepalive`). It never reports, retries or logs its own failures.
 */
export interface ErrorReporterOptions {
  endpoint: string;
  /** Share of events kept, 0 to 1. */
  sampleRate?: number;
  /** Events kept until the next send; more are counted as dropped. */
  bufferLimit?: number;
  /** A send taking longer is abandoned. */
  timeoutMs?: number;
  /** How often buffered events are sent. */
  flushIntervalMs?: number;
  random?: () => number;
  fetch?: typeof fetch;
}

export const REPORT_TIMEOUT_MS = 5000;
export const REPORT_INTERVAL_MS = 10_000;

export interface ErrorReporter {
  /** Keeps an error for the next send (subject to the sample rate and the buffer). */
  capture(type: ClientErrorType, error: unknown, source?: string): void;
  /** Sends what is buffered now; resolves when the send has ended, whatever its outcome. */
  flush(options?: { keepalive?: boolean }): Promise<void>;
  /** Listens for uncaught errors and rejections, flushes periodically and when the page hides. */
  install(target?: Window): () => void;
  readonly buffered: number;
}

const messageOf = (error: unknown): string => {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
};

/** The page without its query string and fragment: those can hold tokens. */
const currentPath = () =>
  typeof location === 'undefined' ? undefined : `${location.origin}${location.pathname}`;

/** Under the server's body limit and the browser's 64 KB budget for requests sent on page hide. */
const REPORT_MAX_BYTES = CLIENT_ERROR_BODY_LIMIT - 4096;
const encoder = new TextEncoder();
const sizeOf = (report: ClientErrorReport) => encoder.encode(JSON.stringify(report)).length;

/** Shortens stacks, then leaves out the last events (counted as dropped), until the report fits. */
export function fitReport(report: ClientErrorReport, maxBytes = REPORT_MAX_BYTES) {
  let fitted = report;
  for (const stackLength of [1000, 200, 0]) {
    if (sizeOf(fitted) <= maxBytes) return fitted;
    fitted = {
      ...fitted,
      events: fitted.events.map((event) => ({
        ...event,
        stack: stackLength ? event.stack?.slice(0, stackLength) : undefined,
      })),
    };
  }
  while (fitted.events.length > 1 && sizeOf(fitted) > maxBytes) {
    fitted = {
      events: fitted.events.slice(0, -1),
      dropped: (fitted.dropped ?? 0) + 1,
    };
  }
  return fitted;
}

export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const {
    endpoint,
    sampleRate = 1,
    bufferLimit = CLIENT_ERROR_BUFFER,
    timeoutMs = REPORT_TIMEOUT_MS,
    flushIntervalMs = REPORT_INTERVAL_MS,
    random = Math.random,
  } = options;
  const send = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  let buffer: ClientErrorEvent[] = [];
  let dropped = 0;
  let sending: Promise<void> | null = null;

  const reporter: ErrorReporter = {
    get buffered() {
      return buffer.length;
    },

    capture(type, error, source) {
      try {
        if (random() >= sampleRate) return;
        if (buffer.length >= bufferLimit) {
          dropped += 1;
          return;
        }
        const stack = error instanceof Error ? error.stack : undefined;
        buffer.push({
          type,
          message: messageOf(error).slice(0, clientErrorLimits.message),
          stack: stack?.slice(0, clientErrorLimits.stack),
          source: source?.slice(0, clientErrorLimits.source),
          url: currentPath()?.slice(0, clientErrorLimits.url),
          userAgent:
            typeof navigator === 'undefined'
              ? undefined
              : navigator.userAgent.slice(0, clientErrorLimits.userAgent),
          occurredAt: new Date().toISOString(),
        });
        // A full buffer goes at once (unless a send is under way: the next one takes it).
        if (buffer.length >= bufferLimit) void reporter.flush();
      } catch {
        // Reporting must never become an error of its own.
      }
    },

    flush({ keepalive = false } = {}) {
      if (sending || buffer.length === 0) return sending ?? Promise.resolve();
      const report = fitReport({ events: buffer, dropped });
      buffer = [];
      dropped = 0;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      sending = send(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(report),
        credentials: 'same-origin',
        keepalive,
        signal: controller.signal,
      })
        .then(
          () => undefined,
          // Lost: a report about failing to report would only feed a loop.
          () => undefined,
        )
        .finally(() => {
          clearTimeout(timer);
          sending = null;
        });
      return sending;
    },

    install(target = window) {
      const onError = (event: ErrorEvent) => {
        const where = event.filename
          ? `${event.filename}:${event.lineno}:${event.colno}`
          : undefined;
        reporter.capture('error', event.error ?? event.message, where);
      };
      const onRejection = (event: PromiseRejectionEvent) =>
        reporter.capture('unhandledrejection', event.reason);
      const onHide = () => {
        if (target.document.visibilityState === 'hidden') void reporter.flush({ keepalive: true });
      };
      const onPageHide = () => void reporter.flush({ keepalive: true });
      target.addEventListener('error', onError);
      target.addEventListener('unhandledrejection', onRejection);
      target.document.addEventListener('visibilitychange', onHide);
      target.addEventListener('pagehide', onPageHide);
      const interval = setInterval(() => void reporter.flush(), flushIntervalMs);
      return () => {
        target.removeEventListener('error', onError);
        target.removeEventListener('unhandledrejection', onRejection);
        target.document.removeEventListener('visibilitychange', onHide);
        target.removeEventListener('pagehide', onPageHide);
        clearInterval(interval);
      };
    },
  };
  return reporter;
}

let installed: ErrorReporter | null = null;

/** The console's reporter, installed once as the console starts (boot/session-check.ts). */
export function installErrorReporter(endpoint: string): ErrorReporter {
  if (!installed) {
    installed = createErrorReporter({ endpoint });
    installed.install();
  }
  return installed;
}

/** An error the app caught but could not handle (the error screen): reported like uncaught ones. */
export function reportError(error: unknown) {
  installed?.capture('render', error);
}
