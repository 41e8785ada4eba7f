/**
 * Tells a database that is out of reach (network cut, server restarting, pool unable to connect)
 * apart from every other failure: the first is passing, so a request answers 503 "try again" and
 * a job is retried, while anything else is a fault of ours.
 */

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: the server is shutting down or starting (57P01-57P03), or refuses more
 * connections (53300); class 08 is "connection exception".
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres and its pool say it in words only: the message, and the reason to log. */
const DRIVER_MESSAGES: [RegExp, string][] = [
  [/^Connection terminated/, 'connection-terminated'],
  [/^Client has encountered a connection error and is not queryable$/, 'connection-lost'],
  [/^timeout exceeded when trying to connect$/, 'pool-timeout'],
  [/^timeout expired$/, 'connect-timeout'],
];

const MAX_DEPTH = 5;

/**
 * Why the database is unavailable (a short code safe to log, e.g. `ECONNREFUSED`, `57P01`,
 * `connection-terminated`), or null when the error is something else. Follows `cause` (Drizzle
 * wraps driver errors) and `errors` (a connect tried on several addresses).
 */
export function databaseUnavailability(error: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return null;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return code;
  }
  if (typeof message === 'string') {
    const known = DRIVER_MESSAGES.find(([pattern]) => pattern.test(message));
    if (known) return known[1];
  }
  if (cause !== undefined && cause !== error) {
    const reason = databaseUnavailability(cause, depth + 1);
    if (reason) return reason;
  }
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const reason = databaseUnavailability(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return null;
}
