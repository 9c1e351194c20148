// Made on first use: the first Intl formatter of a page loads the locale's data, which costs a
// phone tens of milliseconds of startup on screens that show no date.
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** A day, in the reader's locale (list columns). */
export const formatDate = (date: Date) =>
  (dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })).format(date);

/** A moment, in the reader's locale (details cards). */
export const formatDateTime = (date: Date) =>
  (dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  })).format(date);
