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
