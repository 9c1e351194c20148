// Made on first use: the first Intl formatter of a page loads the locale's data, which costs a
// phone tens of milliseconds of startup on screens that show no date.
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;
let timeOfDayFormat: Intl.DateTimeFormat | undefined;

const listDateFormat = () =>
  (dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));

/** A day, in the reader's locale (list columns). */
export const formatDate = (date: Date) => listDateFormat().format(date);

/**
 * For a screen whose list shows days: its formatter is made in a task of its own while the list's
 * answer travels, rather than in the task that draws the rows (a long one on a phone). Not in an
 * idle callback: a page that is starting up has no idle moment before the answer is in.
 */
export function prepareDateFormat() {
  setTimeout(listDateFormat, 0);
}

/** A moment, in the reader's locale (details cards). */
export const formatDateTime = (date: Date) =>
  (dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  })).format(date);

/** The time of day to the second, in the reader's locale (a log's rows, the day shown apart). */
export const formatTimeOfDay = (date: Date) =>
  (timeOfDayFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })).format(date);

let shortTimeFormat: Intl.DateTimeFormat | undefined;
const shortTime = (date: Date) =>
  (shortTimeFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' })).format(date);

const dayNumber = (date: Date) =>
  Math.round(new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime() / 86_400_000);

/**
 * A list's day that tells recent rows apart: "Today, 14:05" and "Yesterday, 09:12" (in the
 * reader's time zone), else the day alone. The full moment goes in the cell's tooltip.
 */
export function formatRecentDay(date: Date, now = new Date()) {
  const daysAgo = dayNumber(now) - dayNumber(date);
  if (daysAgo === 0) return `Today, ${shortTime(date)}`;
  if (daysAgo === 1) return `Yesterday, ${shortTime(date)}`;
  return formatDate(date);
}
