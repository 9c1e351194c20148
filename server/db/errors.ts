/** PostgreSQL's own error, as both drivers raise it; drizzle wraps it in `cause`. */
function postgresError(error: unknown): { code: string; constraint?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, constraint, cause } = current as Record<string, unknown>;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint };
    current = cause;
  }
  return undefined;
}

/** True when a query failed on a unique index (23505), of the named constraint if one is given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const failure = postgresError(error);
  return (
    failure?.code === '23505' && (constraint === undefined || failure.constraint === constraint)
  );
}

/**
 * A value the client sent that PostgreSQL cannot take (a number out of range, a NUL in a text):
 * the contract refuses these first; this catches what slips through as a 400, not a 500.
 */
export function isBadValueForDatabase(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code === '22003' || code === '22021' || code === '22P05';
}
