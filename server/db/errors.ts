/**
 * True when a query failed on a unique index (SQLSTATE 23505), of the named constraint if one is
 * given. Both drivers raise PostgreSQL's own error; drizzle wraps it in `cause`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, constraint: name, cause } = current as Record<string, unknown>;
    if (code === '23505') return constraint === undefined || name === constraint;
    current = cause;
  }
  return false;
}
