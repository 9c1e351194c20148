const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A day, in the reader's locale (list columns). */
export const formatDate = (date: Date) => dateFormat.format(date);

/** A moment, in the reader's locale (details cards). */
export const formatDateTime = (date: Date) => dateTimeFormat.format(date);
