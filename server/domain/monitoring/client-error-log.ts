import type { FastifyBaseLogger } from 'fastify';
import type { z } from '../../../src/api/contract/zod';
import type { clientErrorReport } from '../../../src/api/contract/client-errors';
import { redactUrl } from '../../log-serializers';

type Report = z.output<typeof clientErrorReport>;

const REDACTED = '[redacted]';
// What a browser's error text may carry that must not reach the log: bearer headers, cookies,
// secrets in query strings, and anything shaped like our 43-character tokens (or longer keys).
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
const SECRET_ASSIGNMENT =
  /\b(launchpad_session|token|resetKey|password)(\s*[=:]\s*)("?)[^\s"&;,]+/gi;
const LONG_SECRET = /[A-Za-z0-9_-]{32,}/g;

/** An error text from a browser, with anything secret taken out. */
export function redactClientText(text: string): string {
  return redactUrl(text)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(SECRET_ASSIGNMENT, `$1$2$3${REDACTED}`)
    .replace(LONG_SECRET, REDACTED);
}

/** A page address reduced to its path: query strings and fragments can hold tokens. */
export function pathOnly(url: string): string {
  const cut = url.search(/[?#]/);
  return redactClientText(cut === -1 ? url : url.slice(0, cut));
}

/**
 * One log line per reported event: `error` for uncaught errors and those the error screen showed,
 * `warn` for unhandled promise rejections (often a failed request already shown to the user).
 */
export function logClientErrors(log: FastifyBaseLogger, report: Report, ip: string) {
  for (const event of report.events) {
    const entry = {
      clientError: {
        type: event.type,
        message: redactClientText(event.message),
        stack: event.stack === undefined ? undefined : redactClientText(event.stack),
        source: event.source === undefined ? undefined : pathOnly(event.source),
        url: event.url === undefined ? undefined : pathOnly(event.url),
        userAgent: event.userAgent,
        occurredAt: event.occurredAt,
      },
      remoteAddress: ip,
    };
    if (event.type === 'unhandledrejection') log.warn(entry, 'browser error reported');
    else log.error(entry, 'browser error reported');
  }
  if (report.dropped > 0) {
    log.warn({ dropped: report.dropped, remoteAddress: ip }, 'browser dropped error reports');
  }
}
