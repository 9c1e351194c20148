import { z } from './zod';
import { envelope } from './envelope';

/**
 * `POST /logging`: errors the browser could not handle, sent by the console's error reporter.
 * Public (errors happen before sign-in too), so every size is capped: at most
 * CLIENT_ERROR_BUFFER events a report, long texts cut rather than refused.
 */
export const CLIENT_ERROR_BUFFER = 20;
/** The largest report body the server reads (bytes). */
export const CLIENT_ERROR_BODY_LIMIT = 64 * 1024;

export const clientErrorLimits = {
  message: 1000,
  stack: 4000,
  source: 500,
  url: 500,
  userAgent: 300,
} as const;

const cut = (max: number) =>
  z.pipe(
    z.string(),
    z.transform((value) => value.slice(0, max)),
  );

export const clientErrorTypes = ['error', 'unhandledrejection', 'render'] as const;
export type ClientErrorType = (typeof clientErrorTypes)[number];

export const clientErrorEvent = z.object({
  /** An uncaught error, an unhandled promise rejection, or an error the error screen showed. */
  type: z.enum(clientErrorTypes),
  message: cut(clientErrorLimits.message),
  stack: z.optional(cut(clientErrorLimits.stack)),
  /** Script, line and column of an uncaught error. */
  source: z.optional(cut(clientErrorLimits.source)),
  /** The console page (path only: query strings can hold tokens). */
  url: z.optional(cut(clientErrorLimits.url)),
  userAgent: z.optional(cut(clientErrorLimits.userAgent)),
  /** When the browser saw it (ISO 8601). */
  // The length first, so that the format's pattern only ever sees a short value.
  occurredAt: z.optional(
    z.pipe(z.string().check(z.maxLength(40, { abort: true })), z.iso.datetime()),
  ),
});
export type ClientErrorEvent = z.input<typeof clientErrorEvent>;

export const clientErrorReport = z.object({
  events: z.array(clientErrorEvent).check(z.minLength(1), z.maxLength(CLIENT_ERROR_BUFFER)),
  /** Events the browser left out because its buffer was full. */
  dropped: z._default(z.int().check(z.gte(0), z.lte(1_000_000)), 0),
});
export type ClientErrorReport = z.input<typeof clientErrorReport>;

export const clientErrorReportResponse = envelope(z.object({ received: z.int() }));
