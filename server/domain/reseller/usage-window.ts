import { usageMessages } from '../../../src/api/contract/usage';
import { badRequest } from '../../http-error';

/**
 * The calendar month usage is counted in (UTC), and the arithmetic of its figures: periods are
 * clipped to [the month's start, its end or now), minutes are whole (rounded from the exact
 * milliseconds), hours are minutes / 60 to 2 decimals. Sums are taken of minutes, never of
 * rounded hours, so that a company's total is the same however its rows are cut.
 */

export interface UsageWindow {
  /** `YYYY-MM`. */
  month: string;
  from: Date;
  /** The month's end, or now while the month is not over. */
  to: Date;
}

/** The first moment of a month; `monthIndex` 12 is January of the next year. */
function monthStart(year: number, monthIndex: number): Date {
  // Not Date.UTC: it reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, 1);
  return date;
}

export const monthOf = (date: Date): string =>
  `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** The window of `month` (already `YYYY-MM`) as of `now`; 400 for a month not begun yet. */
export function usageWindow(month: string, now: Date): UsageWindow {
  // Both are YYYY-MM: their text sorts as the months do.
  if (month > monthOf(now)) throw badRequest(usageMessages.monthInFuture, 'month');
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1;
  const from = monthStart(year, index);
  const end = monthStart(year, index + 1);
  return { month, from, to: end < now ? end : now };
}

/** The current month up to now: what the Customers list shows. */
export const currentWindow = (now: Date): UsageWindow => usageWindow(monthOf(now), now);

export const wholeMinutes = (ms: number): number => Math.round(ms / 60_000);

/** Hours to 2 decimals, from whole minutes (minutes * 100 / 60 is never half way). */
export const hoursOf = (minutes: number): number => Math.round((minutes * 100) / 60) / 100;

/** A GB is 2^30 bytes (a GiB), as engines count disks. */
export const BYTES_PER_GB = 2 ** 30;

/** A size in GB to 2 decimals. */
export const gbOf = (bytes: number): number => Math.round((bytes * 100) / BYTES_PER_GB) / 100;

/**
 * GB-hours to 2 decimals from byte-minutes (Σ minutes × bytes), rounded once, half up. In
 * integers: a month of a few TB is past the doubles' exact integers.
 */
export function gbHoursOf(byteMinutes: bigint): number {
  const per = 60n * BigInt(BYTES_PER_GB);
  return Number((byteMinutes * 200n + per) / (2n * per)) / 100;
}

/** A stored period; an open one (`endedAt` null) lasts until now. */
export interface StoredPeriod {
  startedAt: Date;
  endedAt: Date | null;
}

export interface Span {
  from: Date;
  to: Date;
}

/** The part of the period inside the window, or undefined when none of it is. */
export function clip(period: StoredPeriod, window: UsageWindow): Span | undefined {
  const from = period.startedAt > window.from ? period.startedAt : window.from;
  const end = period.endedAt ?? window.to;
  const to = end < window.to ? end : window.to;
  return from < to ? { from, to } : undefined;
}

/** How many milliseconds of the span the periods cover (they never overlap each other). */
export function coveredMs(span: Span, periods: readonly StoredPeriod[]): number {
  let ms = 0;
  for (const period of periods) {
    const part = clip(period, { month: '', ...span });
    if (part) ms += part.to.getTime() - part.from.getTime();
  }
  return ms;
}
