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
    },
  };
}
