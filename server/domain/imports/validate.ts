import type { z } from '../../../src/api/contract/zod';
import type { FieldError } from '../../../src/api/contract/envelope';

/** One item of the file that passed its schema, with its position in the file. */
export interface Row<T> {
  index: number;
  item: T;
}

export const importMessages = {
  duplicateExternalId: 'Duplicate externalId in this file',
  duplicateEmail: 'The same email is used by another item of this file',
  emailTaken: 'A user with this email already exists',
  unknownDistributor: 'Unknown distributer',
  unknownReseller: 'Unknown reseller',
  reservedExternalId: "externalIds starting with 'reseller:' belong to resellers' staff companies",
  consoleCustomerExternalId:
    "externalIds starting with 'customer:' belong to companies created in a reseller's console",
} as const;

/** The errors of one file: at most one per field of an item (the first found), reported in item order. */
export class RowErrors {
  private readonly list: FieldError[] = [];
  private readonly seen = new Set<string>();

  add(index: number, field: string, message: string) {
    const key = `${index}\u0000${field}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ index, field, message });
  }

  get any(): boolean {
    return this.list.length > 0;
  }

  /** Sorted by index; within an item in the order they were found (Array.sort is stable). */
  sorted(): FieldError[] {
    return [...this.list].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  }
}

/** Read from the raw item so that a duplicate is reported even on an item that is otherwise bad. */
function rawExternalId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as { externalId?: unknown }).externalId;
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * Checks every item against its schema, so that all bad items are reported at once, and flags
 * the later of two items with the same externalId.
 */
export function parseItems<T>(
  schema: z.ZodMiniType<T>,
  raw: readonly unknown[],
): { rows: Row<T>[]; errors: RowErrors } {
  const errors = new RowErrors();
  const rows: Row<T>[] = [];
  const firstIndex = new Map<string, number>();
  raw.forEach((value, index) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      rows.push({ index, item: parsed.data });
    } else {
      for (const issue of parsed.error.issues) {
        errors.add(index, issue.path.map(String).join('.') || 'item', issue.message);
      }
    }
    const externalId = rawExternalId(value);
    if (externalId === undefined) return;
    if (firstIndex.has(externalId)) {
      errors.add(index, 'externalId', importMessages.duplicateExternalId);
    } else {
      firstIndex.set(externalId, index);
    }
  });
  return { rows, errors };
}

/** Flags the later of two items that share a value (an account e-mail). */
export function flagDuplicates(
  entries: readonly { index: number; value: string }[],
  field: string,
  message: string,
  errors: RowErrors,
) {
  const seen = new Set<string>();
  for (const { index, value } of entries) {
    if (seen.has(value)) errors.add(index, field, message);
    seen.add(value);
  }
}

/** Whether writing `next` over `current` would change a stored value. */
export function differs<T extends Record<string, unknown>>(current: T, next: Partial<T>): boolean {
  return Object.entries(next).some(([key, value]) => current[key] !== value);
}
