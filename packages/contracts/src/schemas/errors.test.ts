import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelopeSchema, successOnlySchema, successSchema, toFieldErrors } from './errors.js';

describe('errorEnvelopeSchema', () => {
  const base = {
    success: false,
    error: 'Study name is required',
    message: 'Study name is required',
    code: 'VALIDATION_ERROR',
  } as const;

  it('accepts the envelope with and without field details', () => {
    expect(errorEnvelopeSchema.parse(base)).toEqual(base);
    const withFields = {
      ...base,
      details: { fields: [{ field: 'name', message: 'Study name is required' }] },
    };
    expect(errorEnvelopeSchema.parse(withFields)).toEqual(withFields);
  });
  it('rejects success: true and missing code', () => {
    expect(errorEnvelopeSchema.safeParse({ ...base, success: true }).success).toBe(false);
    const { code: _code, ...withoutCode } = base;
    expect(errorEnvelopeSchema.safeParse(withoutCode).success).toBe(false);
  });
  it('strips unknown keys, so internals never pass through a response schema', () => {
    expect(errorEnvelopeSchema.parse({ ...base, stack: 'at x' })).toEqual(base);
  });
});

describe('successSchema', () => {
  const schema = successSchema({ studyCode: z.string() });

  it('adds success: true to the shape', () => {
    expect(schema.parse({ success: true, studyCode: 'ABC123' })).toEqual({
      success: true,
      studyCode: 'ABC123',
    });
  });
  it('rejects success: false and missing fields', () => {
    expect(schema.safeParse({ success: false, studyCode: 'ABC123' }).success).toBe(false);
    expect(schema.safeParse({ success: true }).success).toBe(false);
  });
  it('types the parsed value', () => {
    const value: { success: true; studyCode: string } = schema.parse({
      success: true,
      studyCode: 'X',
    });
    expect(value.studyCode).toBe('X');
  });
  it('successOnlySchema accepts a bare success', () => {
    expect(successOnlySchema.parse({ success: true })).toEqual({ success: true });
    expect(successOnlySchema.safeParse({}).success).toBe(false);
  });
});

describe('toFieldErrors', () => {
  it('joins paths and keeps the first message per field', () => {
    const result = z
      .object({
        name: z.string().min(1, 'Study name is required').min(3, 'too short'),
        participants: z.array(z.object({ email: z.string().email('Invalid email format') })),
      })
      .safeParse({ name: '', participants: [{ email: 'ok@x.com' }, { email: 'bad' }] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toFieldErrors(result.error.issues)).toEqual([
      { field: 'name', message: 'Study name is required' },
      { field: 'participants.1.email', message: 'Invalid email format' },
    ]);
  });
  it('uses an empty field for root issues', () => {
    expect(toFieldErrors([{ path: [], message: 'Invalid input' }])).toEqual([
      { field: '', message: 'Invalid input' },
    ]);
  });
});
