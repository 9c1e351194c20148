/**
 * Billing months (`YYYY-MM`): calendar months in UTC, as the usage API counts them. Strings of
 * that form compare in time order.
 */

const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** The month under way now (UTC). */
export const currentMonth = (now = new Date()) => monthOf(now);

/**
 * The month the usage card shows: the one asked for in the URL, unless there is none or it is
 * still to come (nothing to bill yet), then the current one.
 */
export const shownMonth = (asked: string | undefined, now = new Date()) =>
  asked && asked <= currentMonth(now) ? asked : currentMonth(now);

let labelFormat: Intl.DateTimeFormat | undefined;

/** "November 2026". */
export const monthLabel = (month: string) =>
  (labelFormat ??= new Intl.DateTimeFormat(undefined, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })).format(new Date(`${month}-01T00:00:00Z`));

/**
 * The months a customer can have usage in, newest first: from the month it was created (or an
 * earlier one asked for) to the current one; none after it.
 */
export function monthsOffered(createdAt: Date, shown: string, now = new Date()) {
  const first = [monthOf(createdAt), shown].sort()[0]!;
  const months: string[] = [];
  const cursor = new Date(`${currentMonth(now)}-01T00:00:00Z`);
  for (let month = monthOf(cursor); month >= first; month = monthOf(cursor)) {
    months.push(month);
    cursor.setUTCMonth(cursor.getUTCMonth() - 1);
  }
  return months;
}
