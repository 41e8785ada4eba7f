/** PostgreSQL's SQLSTATE for a row that breaks a unique index or constraint. */
const UNIQUE_VIOLATION = '23505';

/**
 * Whether an error is (or wraps) a unique violation, optionally of one named constraint. Drizzle
 * wraps the driver's error (pg or PGlite) in its own query error and keeps the original on
 * `cause`, so the code has to be looked for down the chain, not on the error caught.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  // A few links are enough (Drizzle → driver); the bound guards against a cycle.
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, constraint: name } = current as { code?: unknown; constraint?: unknown };
    if (code === UNIQUE_VIOLATION) return constraint === undefined || name === constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
