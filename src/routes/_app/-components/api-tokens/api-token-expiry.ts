import { apiTokenMessages } from '../../../../api/contract/api-tokens';

/** How long a new token lives: a preset number of days, or until the end of a chosen day. */
export type ExpiryChoice = '30' | '90' | '365' | 'date';

export const expiryChoices: { value: ExpiryChoice; label: string }[] = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'date', label: 'Choose a date' },
];

export const DEFAULT_EXPIRY: ExpiryChoice = '90';

// 365 rather than a calendar year: the server allows 366 days, so a leap year or a client clock
// a little ahead still fits.
const LATEST_DAY_OFFSET = 365;
const DAY_MS = 24 * 60 * 60_000;

export const expiryMessages = {
  dateRequired: 'Choose the day the token stops working',
} as const;

const pad = (value: number) => String(value).padStart(2, '0');

/** A local day as a date input holds it: `2027-02-25`. */
const dayString = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

const addDays = (date: Date, days: number) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/** The days a date input may offer: today to a year from today, in the reader's time zone. */
export const expiryDayBounds = (now: Date) => ({
  min: dayString(now),
  max: dayString(addDays(now, LATEST_DAY_OFFSET)),
});

/** The last moment of a `yyyy-mm-dd` day, local time; undefined for anything else. */
function endOfDay(day: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const end = new Date(year, month, date, 23, 59, 59, 999);
  return end.getMonth() === month ? end : undefined;
}

/** Why the chosen day cannot be an expiry, if it cannot (checked before anything is sent). */
export function expiryDayError(day: string, now: Date): string | undefined {
  if (!day) return expiryMessages.dateRequired;
  if (!endOfDay(day)) return apiTokenMessages.expiryInvalid;
  const { min, max } = expiryDayBounds(now);
  if (day < min) return apiTokenMessages.expiryPast;
  if (day > max) return apiTokenMessages.expiryTooFar;
  return undefined;
}

/** When a token made now with this choice stops working. */
export function expiresAtOf(choice: ExpiryChoice, day: string, now: Date): Date | undefined {
  if (choice === 'date') return endOfDay(day);
  return new Date(now.getTime() + Number(choice) * DAY_MS);
}
