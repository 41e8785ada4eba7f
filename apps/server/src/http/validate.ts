import type { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * Validates data that did not pass through a route schema (multipart fields) and fails with the
 * same envelope as schema validation: VALIDATION_ERROR with one entry per field.
 */
export function parseOrFail<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const byField = new Map<string, string>();
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    if (!byField.has(field)) byField.set(field, issue.message);
  }
  const fields = [...byField].map(([field, message]) => ({ field, message }));
  const first = fields[0];
  throw new AppError(
    400,
    'VALIDATION_ERROR',
    first ? `${first.message} (${first.field})` : 'Invalid request',
    { fields },
  );
}
