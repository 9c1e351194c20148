import { usageError } from './errors';

/** A positive 32-bit id, as the API takes it. */
export function parseId(value: string | undefined, what = 'id'): number {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw usageError(`${what} must be a positive whole number${value ? `, not "${value}"` : ''}`);
  }
  return Number(value);
}

export function parseCount(value: string | boolean | undefined, what: string, fallback: number) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw usageError(`--${what} must be a whole number`);
  }
  return Number(value);
}

export const stringOption = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export function requireOption(options: Record<string, unknown>, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw usageError(`--${name} is required`);
  return value;
}

export const timeoutOf = (options: Record<string, unknown>) =>
  parseCount(options.timeout as string | undefined, 'timeout', 1200);

/**
 * The item a user means by an id, a key or a name: an exact id or key first, then a name equal
 * ignoring case, then the only name containing the text.
 */
export function pick<T extends { id: number }>(
  items: T[],
  wanted: string,
  what: string,
  names: (item: T) => string[],
): T {
  const text = wanted.trim().toLowerCase();
  const byId = /^\d+$/.test(text) ? items.find((i) => i.id === Number(text)) : undefined;
  if (byId) return byId;
  const exact = items.filter((i) => names(i).some((n) => n.toLowerCase() === text));
  if (exact.length === 1) return exact[0]!;
  const partial = items.filter((i) => names(i).some((n) => n.toLowerCase().includes(text)));
  if (partial.length === 1) return partial[0]!;
  const offered = items.map((i) => `${i.id} (${names(i).join(', ')})`).join('; ');
  throw usageError(
    `${partial.length > 1 ? 'More than one' : 'No'} ${what} matches "${wanted}". Choose one of: ${offered || 'none offered'}`,
  );
}
