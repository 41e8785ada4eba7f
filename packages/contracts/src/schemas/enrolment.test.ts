import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toLocalIsoDate } from '../validators.js';
import {
  checkPendingBodySchema,
  enrollDirectBodySchema,
  updateInfoFieldsSchema,
  verifyEmailCodeBodySchema,
} from './enrolment.js';

const firstMessage = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

const person = {
  email: '  Grace.Hopper@Example.ORG ',
  firstName: 'Grace',
  lastName: 'Hopper',
  dateOfBirth: '1990-04-02',
  studyCode: ' ab12cd ',
};

describe('enrolment contracts', () => {
  it('normalizes the e-mail and the study code as the forms do', () => {
    const parsed = enrollDirectBodySchema.parse(person);
    expect(parsed.email).toBe('grace.hopper@example.org');
    expect(parsed.studyCode).toBe('AB12CD');
  });

  it('uses the product wording for personal information', () => {
    expect(firstMessage(enrollDirectBodySchema, { ...person, lastName: '' })).toBe(
      'Please fill in all required fields',
    );
    expect(firstMessage(enrollDirectBodySchema, { ...person, dateOfBirth: undefined })).toBe(
      'Please fill in all required fields',
    );
    const seventeen = new Date();
    seventeen.setFullYear(seventeen.getFullYear() - 17);
    expect(
      firstMessage(enrollDirectBodySchema, { ...person, dateOfBirth: toLocalIsoDate(seventeen) }),
    ).toBe('You must be at least 18 years old to participate');
    const eighteen = new Date();
    eighteen.setFullYear(eighteen.getFullYear() - 18);
    expect(
      enrollDirectBodySchema.safeParse({ ...person, dateOfBirth: toLocalIsoDate(eighteen) })
        .success,
    ).toBe(true);
  });

  it('asks for both contact fields in the pre-approved flow', () => {
    expect(
      firstMessage(checkPendingBodySchema, {
        studyCode: 'AB12CD',
        email: 'a@b.co',
        phoneNumber: '',
      }),
    ).toBe('Please enter both email and phone number');
    expect(
      firstMessage(checkPendingBodySchema, {
        studyCode: 'AB12CD',
        email: '',
        phoneNumber: '6175550100',
      }),
    ).toBe('Please enter both email and phone number');
  });

  it('checks codes and names with the product wording', () => {
    const base = { participantId: 'P0123456789abcdef', email: 'a@b.co', studyCode: 'AB12CD' };
    expect(firstMessage(verifyEmailCodeBodySchema, { ...base, verificationCode: '12345' })).toBe(
      'Please enter a valid 6-digit code',
    );
    expect(firstMessage(verifyEmailCodeBodySchema, { ...base, verificationCode: '' })).toBe(
      'Please enter the verification code',
    );
    expect(
      firstMessage(updateInfoFieldsSchema, {
        participantId: 'P0123456789abcdef',
        studyCode: 'AB12CD',
        firstName: 'x'.repeat(101),
        lastName: 'Hopper',
      }),
    ).toBe('First name is too long (max 100 characters)');
  });

  it('converts to JSON Schema for OpenAPI', () => {
    for (const schema of [enrollDirectBodySchema, checkPendingBodySchema, updateInfoFieldsSchema])
      expect(() => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })).not.toThrow();
  });
});
