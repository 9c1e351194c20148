/** What every paged, searched list of the API shares. */

/** `%` and `_` typed by the user are literal characters, not wildcards. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A case-insensitive "contains" pattern for ILIKE. */
export const containsPattern = (search: string) => `%${escapeLike(search)}%`;

/** Lists always have at least one page, even an empty one. */
export const pageCount = (total: number, rowsPerPage: number) =>
  Math.max(1, Math.ceil(total / rowsPerPage));
