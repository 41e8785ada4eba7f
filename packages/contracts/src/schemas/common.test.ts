import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applicationStatusSchema,
  dataTypeSchema,
  emailSchema,
  firstNameSchema,
  isoDateSchema,
  lastNameSchema,
  nameSchema,
  normalizedEmailSchema,
  optionalPhoneSchema,
  participantIdSchema,
  passwordSchema,
  researcherStatusSchema,
  roleSchema,
  studyCodeSchema,
  textSchema,
  verificationCodeSchema,
} from './common.js';

/** Messages of a failed parse, so tests assert the exact texts a user would see. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('textSchema', () => {
  const loneSurrogate =
    'Text must be valid Unicode: it holds half of a surrogate pair (U+D800 to U+DFFF) on its own.';
  it('refuses half a surrogate pair alone, high or low, anywhere in the text', () => {
    for (const value of ['\ud800', 'a\udbffb', '\udc00', 'x\udfff', '\ude00\ud83d'])
      expect(messages(textSchema, value), JSON.stringify(value)).toEqual([loneSurrogate]);
    // Schemas built on it say the same before their own rules.
    expect(messages(nameSchema, 'Ada \ud800')).toEqual([loneSurrogate]);
  });
  it('takes whole pairs (emoji) and U+FFFD', () => {
    expect(textSchema.parse('Ada \ud83d\ude00 \uFFFD')).toBe('Ada \u{1F600} \uFFFD');
  });
  it('refuses U+0000', () => {
    expect(messages(textSchema, 'a\u0000b')).toEqual([
      'Text must not contain the null character (U+0000).',
    ]);
  });
});

describe('emailSchema', () => {
  it('trims and keeps case', () => {
    expect(emailSchema.parse('  Jane@Example.com ')).toBe('Jane@Example.com');
  });
  it('reports a missing e-mail once', () => {
    expect(messages(emailSchema, '')).toEqual(['Email is required']);
    expect(messages(emailSchema, '   ')).toEqual(['Email is required']);
  });
  it('reports a malformed e-mail', () => {
    expect(messages(emailSchema, 'jane@example')).toEqual(['Invalid email format']);
    expect(messages(emailSchema, 'ja ne@example.com')).toEqual(['Invalid email format']);
  });
  it('rejects non-strings', () => {
    expect(emailSchema.safeParse(42).success).toBe(false);
  });
  it('normalizedEmailSchema lower-cases and trims', () => {
    expect(normalizedEmailSchema.parse(' Jane@Example.COM ')).toBe('jane@example.com');
    expect(messages(normalizedEmailSchema, 'nope')).toEqual(['Invalid email format']);
  });
});

describe('passwordSchema', () => {
  it('accepts 6 characters, including spaces, untrimmed', () => {
    expect(passwordSchema.parse('abc123')).toBe('abc123');
    expect(passwordSchema.parse(' a b c ')).toBe(' a b c ');
  });
  it('rejects 5 characters and empty with the product wording', () => {
    expect(messages(passwordSchema, 'abc12')).toEqual(['Password must be at least 6 characters']);
    expect(messages(passwordSchema, '')).toEqual(['Password must be at least 6 characters']);
  });
});

describe('name schemas', () => {
  it('trims and accepts 100 characters', () => {
    expect(nameSchema.parse(`  ${'a'.repeat(100)}  `)).toHaveLength(100);
  });
  it('rejects 101 characters and blanks', () => {
    expect(messages(nameSchema, 'a'.repeat(101))).toEqual([
      'Name is too long (max 100 characters)',
    ]);
    expect(messages(nameSchema, '  ')).toEqual(['Name is required']);
  });
  it('uses the participant texts for first and last names', () => {
    expect(messages(firstNameSchema, 'a'.repeat(101))).toEqual([
      'First name is too long (max 100 characters)',
    ]);
    expect(messages(lastNameSchema, 'a'.repeat(101))).toEqual([
      'Last name is too long (max 100 characters)',
    ]);
    expect(messages(firstNameSchema, '')).toEqual(['First name and last name are required']);
    expect(messages(lastNameSchema, ' ')).toEqual(['First name and last name are required']);
    expect(firstNameSchema.parse(' Ada ')).toBe('Ada');
  });
});

describe('studyCodeSchema', () => {
  it('formats before validating', () => {
    expect(studyCodeSchema.parse(' abc 123 ')).toBe('ABC123');
    expect(studyCodeSchema.parse('abcd1234')).toBe('ABCD1234');
  });
  it('asks for a code when blank', () => {
    expect(messages(studyCodeSchema, '')).toEqual(['Please enter a study code']);
    expect(messages(studyCodeSchema, '  ')).toEqual(['Please enter a study code']);
  });
  it.each(['ABC12', 'ABCD12345', 'ABC-12', 'ÄBC123'])(
    'rejects %j with the product wording',
    (code) => {
      expect(messages(studyCodeSchema, code)).toEqual([
        'Study code must be 6-8 characters (letters and numbers only)',
      ]);
    },
  );
});

describe('participantIdSchema', () => {
  it('accepts and trims a valid id', () => {
    expect(participantIdSchema.parse(' P0123456789abcdef ')).toBe('P0123456789abcdef');
  });
  it('rejects blank and malformed ids', () => {
    expect(messages(participantIdSchema, '')).toEqual(['Please enter your Participant ID']);
    expect(messages(participantIdSchema, 'P123')).toEqual(['Invalid participant ID']);
    expect(messages(participantIdSchema, 'X0123456789abcdef')).toEqual(['Invalid participant ID']);
  });
});

describe('verificationCodeSchema', () => {
  it('accepts 6 digits', () => {
    expect(verificationCodeSchema.parse(' 123456 ')).toBe('123456');
  });
  it('uses the product wording', () => {
    expect(messages(verificationCodeSchema, '')).toEqual(['Please enter the verification code']);
    expect(messages(verificationCodeSchema, '12345')).toEqual([
      'Please enter a valid 6-digit code',
    ]);
    expect(messages(verificationCodeSchema, '12345a')).toEqual([
      'Please enter a valid 6-digit code',
    ]);
    expect(messages(verificationCodeSchema, '1234567')).toEqual([
      'Please enter a valid 6-digit code',
    ]);
  });
});

describe('isoDateSchema', () => {
  it.each(['2026-01-31', '2024-02-29', '2000-02-29'])('accepts %s', (value) => {
    expect(isoDateSchema.parse(value)).toBe(value);
  });
  it.each(['2023-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-1-1', '01/02/2026', ''])(
    'rejects %j',
    (value) => {
      expect(messages(isoDateSchema, value)).toEqual([
        'Date must be a valid date in yyyy-mm-dd format',
      ]);
    },
  );
  it('rejects a timestamp', () => {
    expect(isoDateSchema.safeParse('2026-01-31T00:00:00Z').success).toBe(false);
  });
});

describe('optionalPhoneSchema', () => {
  it('accepts absent, blank and 10-digit phones', () => {
    expect(optionalPhoneSchema.parse(undefined)).toBeUndefined();
    expect(optionalPhoneSchema.parse('')).toBe('');
    expect(optionalPhoneSchema.parse(' (111) - 0000 - 000 ')).toBe('(111) - 0000 - 000');
  });
  it('accepts numbers abroad written with their country code', () => {
    expect(optionalPhoneSchema.parse('+15551234567')).toBe('+15551234567');
    expect(optionalPhoneSchema.parse('+44 7700 900123')).toBe('+44 7700 900123');
    expect(optionalPhoneSchema.parse('+49 1512 3456789')).toBe('+49 1512 3456789');
  });
  it('rejects wrong digit counts and letters', () => {
    expect(messages(optionalPhoneSchema, '12345')).toEqual(['Invalid phone number format']);
    expect(messages(optionalPhoneSchema, '555123456a')).toEqual(['Invalid phone number format']);
    expect(messages(optionalPhoneSchema, '155512345678')).toEqual(['Invalid phone number format']);
    expect(messages(optionalPhoneSchema, '+44 12')).toEqual(['Invalid phone number format']);
  });
});

describe('enum schemas', () => {
  it('accept the product values and reject others', () => {
    expect(dataTypeSchema.parse('sleep_log')).toBe('sleep_log');
    expect(dataTypeSchema.safeParse('steps').success).toBe(false);
    expect(roleSchema.options).toEqual(['researcher', 'master']);
    expect(researcherStatusSchema.safeParse('noprofile').success).toBe(true);
    expect(applicationStatusSchema.safeParse('noprofile').success).toBe(false);
  });
});

describe('JSON Schema conversion (used for OpenAPI)', () => {
  it('converts every field schema without throwing', () => {
    const schema = z.object({
      email: emailSchema,
      password: passwordSchema,
      code: studyCodeSchema,
      date: isoDateSchema,
      phone: optionalPhoneSchema,
    });
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    expect(json.type).toBe('object');
    expect(json.required).toEqual(['email', 'password', 'code', 'date']);
  });
});
