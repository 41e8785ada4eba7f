/**
 * The response envelope every route uses: success `{ success: true, ... }`, failure
 * `{ success: false, error, message, code }` with optional per-field details for 400s.
 */

import { z } from 'zod';
import { component } from './component.js';

/** One invalid field, `field` being the dotted path into the request ('participants.0.email'). */
export const fieldErrorSchema = component(
  'FieldError',
  z.object({
    field: z.string(),
    message: z.string(),
  }),
);
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorEnvelopeSchema = component(
  'ErrorEnvelope',
  z.object({
    success: z.literal(false),
    /** Human message; the seeds read `error`, newer code reads `message`, so both carry it. */
    error: z.string(),
    message: z.string(),
    /** Stable machine code (e.g. 'VALIDATION_ERROR'); clients map codes, never parse texts. */
    code: z.string(),
    details: z
      .object({
        fields: z.array(fieldErrorSchema).optional(),
      })
      .optional(),
  }),
);

/** `{ success: true, ...shape }` for a route's success response. */
export function successSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ success: z.literal(true), ...shape });
}

/** Success with no payload, e.g. approve, reset, delete. */
export const successOnlySchema = successSchema({});

/** Structural view of a zod issue, so callers need not depend on zod's internal types. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Turns zod issues into envelope field errors; the first issue per field wins. */
export function toFieldErrors(issues: readonly IssueLike[]): FieldError[] {
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const issue of issues) {
    const field = issue.path.map((part) => String(part)).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    fields.push({ field, message: issue.message });
  }
  return fields;
}
