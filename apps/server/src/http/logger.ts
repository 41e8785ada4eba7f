import type { FastifyServerOptions } from 'fastify';

/**
 * Logs carry no secrets and no personal data: credentials and bodies are never logged, and
 * query strings are dropped because they can hold tokens (reset links, signed URLs) or e-mails.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.email',
  '*.phoneNumber',
];

/** An IPv4 address with its port: where a server listens or a connection failed, never a person. */
const SOCKET_ADDRESS = /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/;

/** Values that must never reach a log line even inside an error message. */
const SCRUBBERS: [RegExp, (match: string) => string][] = [
  [/\$argon2(id|i|d)\$[^\s"',)]*/g, () => '[hash]'],
  [/Bearer\s+[A-Za-z0-9._~+/=-]+/gi, () => 'Bearer [redacted]'],
  [/[^\s"'<>(),:;=]+@[^\s"'<>(),:;=]+\.[A-Za-z]{2,}/g, () => '[email]'],
  // Phone numbers and other digit runs (dates of birth stay as "[number]" too). A socket address
  // stays readable: "listening at 127.0.0.1:3000", "ECONNREFUSED 10.0.0.5:5432".
  [
    /\+?\d[\d\s().-]{6,}\d(:\d+)?/g,
    (match) => (SOCKET_ADDRESS.test(match) ? match : match.replace(/^(.*?)(:\d+)?$/, '[number]$2')),
  ],
];

export function scrubText(text: string): string {
  // Database drivers append the bound values to the message ("…\nparams: a,b"); cut them off.
  let clean = text.split(/\r?\nparams:/)[0] ?? '';
  for (const [pattern, replacement] of SCRUBBERS) clean = clean.replace(pattern, replacement);
  return clean;
}

/** Fields of database errors that describe where it failed, never which values were involved. */
const SAFE_ERROR_FIELDS = [
  'code',
  'statusCode',
  'severity',
  'routine',
  'table',
  'column',
  'constraint',
  'schema',
  'dataType',
] as const;

export interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

/**
 * The `err` serializer: type, a scrubbed message, the stack frames (not the first line, which
 * repeats the message), the safe fields above and the cause chain. Never `params`, `query`
 * values, `detail`, `where` or row data, which PGlite, node-postgres and Drizzle attach to errors.
 */
export function serializeError(error: unknown, depth = 0): SerializedError | string {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null))
    return scrubText(String(error));
  const source = error as Error & Record<string, unknown>;
  let message = scrubText(typeof source.message === 'string' ? source.message : '');
  // PostgreSQL quotes the offending value in its messages ('… integer: "abc"'); drop it.
  if (typeof source.severity === 'string') message = message.replace(/"[^"]*"/g, '"[value]"');
  const out: SerializedError = { type: source.constructor?.name ?? 'Error', message };
  if (typeof source.stack === 'string') {
    const frames = source.stack.split('\n').filter((line) => /^\s+at /.test(line));
    out.stack = frames.join('\n');
  }
  for (const field of SAFE_ERROR_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  // The SQL text (placeholders only) helps find the statement; its values are never kept.
  if (typeof source.query === 'string') out.query = scrubText(source.query).slice(0, 500);
  if (source.cause !== undefined && depth < 3) out.cause = serializeError(source.cause, depth + 1);
  return out;
}

const errSerializer = (error: Error) => {
  const serialized = serializeError(error);
  return typeof serialized === 'string'
    ? { type: 'Error', message: serialized, stack: '' }
    : { stack: '', ...serialized };
};

export function loggerOptions(
  level: string,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: {
        method: string;
        url: string;
        ip?: string;
        headers?: Record<string, unknown>;
      }) => ({
        method: req.method,
        path: req.url.split('?')[0],
      }),
      err: errSerializer,
      error: errSerializer,
    },
    hooks: {
      // `log.error(err)` would make the error's own message the line's `msg`: route it through
      // the serializer instead, and scrub any text message.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error) {
          const message = typeof rest[0] === 'string' ? scrubText(rest[0]) : 'error';
          return method.apply(this, [{ err: first }, message]);
        }
        const scrubbed = (args as unknown[]).map((arg) =>
          typeof arg === 'string' ? scrubText(arg) : arg,
        );
        return method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
}
