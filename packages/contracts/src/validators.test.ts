import { describe, expect, it } from 'vitest';
import {
  displayPhone,
  formatAccountPhone,
  formatPhoneInput,
  isAccountPhone,
  isValidOptionalPhone,
  isValidPhone,
  phoneDigits,
  phoneProblem,
  samePhone,
  storedPhone,
  toE164,
} from './phone.js';
import { PHONE_MESSAGES } from './texts/messages.js';
import {
  ageInYears,
  bucketNameForStudy,
  countDaysInclusive,
  defaultExtractionName,
  fileExtension,
  formatDateShort,
  formatStudyCode,
  formatStudyCodeInput,
  formatVerificationCodeInput,
  isAllowedParticipantDocument,
  isAllowedResearcherDocument,
  isAtLeastAge,
  isCsvFile,
  isValidEmail,
  isValidIsoDate,
  isValidParticipantId,
  isValidStudyCode,
  isValidVerificationCode,
  normalizeEmail,
  parseEmailList,
  parseIsoDate,
  participantDisplayStatus,
  previewList,
  toLocalIsoDate,
  truncateJobName,
  validateCsvFile,
} from './validators.js';

describe('isValidStudyCode', () => {
  it.each(['ABC123', 'ABCDEFG', 'ABCD1234', '123456', 'ZZZZZZ'])('accepts %s', (code) => {
    expect(isValidStudyCode(code)).toBe(true);
  });
  it.each([
    ['empty', ''],
    ['5 characters', 'ABC12'],
    ['9 characters', 'ABCD12345'],
    ['lower case', 'abc123'],
    ['mixed case', 'Abc123'],
    ['inner space', 'ABC 123'],
    ['surrounding whitespace', ' ABC123 '],
    ['punctuation', 'ABC-123'],
    ['non-ASCII letter', 'ÄBC123'],
  ])('rejects %s', (_label, code) => {
    expect(isValidStudyCode(code)).toBe(false);
  });
});

describe('formatStudyCode', () => {
  it('removes every whitespace character and upper-cases', () => {
    expect(formatStudyCode(' ab c\t12\n3 ')).toBe('ABC123');
  });
  it('keeps other characters for the validator to reject', () => {
    expect(formatStudyCode('ab-12')).toBe('AB-12');
  });
  it('formats then validates a lower-case code', () => {
    expect(isValidStudyCode(formatStudyCode('abc 123'))).toBe(true);
  });
  it('returns empty for whitespace only', () => {
    expect(formatStudyCode('   ')).toBe('');
  });
});

describe('formatStudyCodeInput', () => {
  it('cuts to 8 by default', () => {
    expect(formatStudyCodeInput('abcd12345')).toBe('ABCD1234');
  });
  it('cuts to the join dialog limit of 6', () => {
    expect(formatStudyCodeInput('abc1234', 6)).toBe('ABC123');
  });
});

describe('formatAccountPhone and isAccountPhone', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['555', '(555)'],
    ['5551', '(555) 1'],
    ['5551234', '(555) 123-4'],
    ['55512345', '(555) 123-45'],
    ['5551234567', '(555) 123-4567'],
  ])('formats %j as %j while typing', (input, expected) => {
    expect(formatAccountPhone(input)).toBe(expected);
  });
  it('drops letters and punctuation', () => {
    expect(formatAccountPhone('(555) abc 123-4567')).toBe('(555) 123-4567');
  });
  it('ignores digits past the tenth', () => {
    expect(formatAccountPhone('555123456789')).toBe('(555) 123-4567');
  });
  it('is idempotent on its own output and reads the older grouping', () => {
    expect(formatAccountPhone('(555) 123-4567')).toBe('(555) 123-4567');
    expect(formatAccountPhone('(555) - 123 - 4567')).toBe('(555) 123-4567');
  });
  it('returns empty for letters only', () => {
    expect(formatAccountPhone('abc')).toBe('');
  });
  it.each(['(555) 123-4567', '(555) - 123 - 4567', '+15551234567', '555.123.4567'])(
    'takes %j as an account phone',
    (value) => {
      expect(isAccountPhone(value)).toBe(true);
    },
  );
  it.each(['(555) 123-456', '+447700900123', '555123456a', ''])('refuses %j', (value) => {
    expect(isAccountPhone(value)).toBe(false);
  });
});

describe('isValidOptionalPhone, toE164 and phoneProblem', () => {
  it.each([
    ['5551234567', '+15551234567'],
    ['(555) - 123 - 4567', '+15551234567'],
    ['(111) - 0000 - 000', '+11110000000'],
    ['555.123.4567', '+15551234567'],
    ['555 123 4567', '+15551234567'],
    // The README's add-participant example and a North American number with its trunk prefix.
    ['+15551234567', '+15551234567'],
    ['15551234567', '+15551234567'],
    // Abroad: the country code typed with '+'.
    ['+44 7700 900123', '+447700900123'],
    ['+49 1512 3456789', '+4915123456789'],
  ])('accepts %j as %s', (value, e164) => {
    expect(isValidOptionalPhone(value)).toBe(true);
    expect(toE164(value)).toBe(e164);
    expect(phoneProblem(value)).toBeNull();
  });
  it('reads a number without + in the chosen country', () => {
    expect(toE164('07700 900123', 'GB')).toBe('+447700900123');
    expect(toE164('01512 3456789', 'DE')).toBe('+4915123456789');
    expect(isValidOptionalPhone('07700 900123', 'GB')).toBe(true);
    // The same digits are not a North American number.
    expect(isValidOptionalPhone('07700 900123')).toBe(false);
  });
  it.each([
    ['9 digits', '555123456', PHONE_MESSAGES.tooShort],
    ['12 digits', '155512345678', PHONE_MESSAGES.tooLong],
    ['letters', '555-123-456a', 'Invalid phone number format'],
    ['letters with ten digits', 'call 5551234567', 'Invalid phone number format'],
    ['a plus in the middle', '555+1234567', 'Invalid phone number format'],
    ['a short international number', '+44 12', PHONE_MESSAGES.tooShort],
  ])('rejects %s with its message', (_label, value, message) => {
    expect(isValidOptionalPhone(value)).toBe(false);
    expect(toE164(value)).toBeNull();
    expect(phoneProblem(value)).toBe(message);
  });
  it('treats blank, null and undefined as an absent optional phone', () => {
    expect(isValidOptionalPhone('')).toBe(true);
    expect(isValidOptionalPhone('   ')).toBe(true);
    expect(isValidOptionalPhone(null)).toBe(true);
    expect(isValidOptionalPhone(undefined)).toBe(true);
    expect(isValidPhone('')).toBe(false);
    expect(storedPhone('  ')).toBeNull();
  });
  it('stores E.164 and compares numbers however they were written', () => {
    expect(storedPhone('(617) - 5550 - 123')).toBe('+16175550123');
    // Rows stored before E.164 hold 10 digits.
    expect(samePhone('6175550123', '+1 (617) 555-0123')).toBe(true);
    expect(samePhone('+447700900123', '07700 900123')).toBe(false);
    expect(samePhone('', '')).toBe(false);
  });
  it('shows every home-country number in national format, others internationally', () => {
    for (const written of ['+16175550123', '6175550123', '(617) - 5550 - 123', '617.555.0123'])
      expect(displayPhone(written)).toBe('(617) 555-0123');
    expect(displayPhone('+447700900123')).toBe('+44 7700 900123');
    expect(displayPhone('+4915123456789')).toBe('+49 1512 3456789');
    // A viewer whose home is the UK reads UK numbers nationally and US ones with their code.
    expect(displayPhone('+447700900123', 'GB')).toBe('07700 900123');
    expect(displayPhone('+16175550123', 'GB')).toBe('+1 617 555 0123');
    expect(displayPhone('')).toBe('');
    expect(displayPhone(null)).toBe('');
    expect(displayPhone('12345')).toBe('12345');
  });
  it('groups a typed number as it is shown: national at home, +CC for its country', () => {
    expect(formatPhoneInput('5551234567')).toBe('(555) 123-4567');
    expect(formatPhoneInput('+447700900123')).toBe('+44 7700 900123');
    expect(formatPhoneInput('+49 1512 3456789')).toBe('+49 1512 3456789');
    expect(formatPhoneInput('+')).toBe('+');
    expect(formatPhoneInput(displayPhone('+16175550123'))).toBe(displayPhone('+16175550123'));
  });
  it('phoneDigits keeps only digits', () => {
    expect(phoneDigits('(555) - 123 - 4567')).toBe('5551234567');
  });
});

describe('isValidEmail', () => {
  it.each(['a@x.com', 'first.last+tag@sub.example.org', 'A@B.CO'])('accepts %s', (value) => {
    expect(isValidEmail(value)).toBe(true);
  });
  it.each([
    '',
    'plain',
    'a@x',
    '@x.com',
    'a@.com',
    'a@x.',
    'a b@x.com',
    ' a@x.com',
    'a@x.com ',
    'a@@x.com',
    'a@x@y.com',
  ])('rejects %j', (value) => {
    expect(isValidEmail(value)).toBe(false);
  });
  it('normalizeEmail trims and lower-cases', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });
});

describe('parseEmailList', () => {
  it('splits on commas, trims and drops empties', () => {
    expect(parseEmailList('a@x.com, ,b@y.org,')).toEqual(['a@x.com', 'b@y.org']);
  });
  it('returns an empty list for blank input', () => {
    expect(parseEmailList('')).toEqual([]);
    expect(parseEmailList(' , ,')).toEqual([]);
  });
  it('keeps entries it cannot judge; validation is separate', () => {
    expect(parseEmailList(' not-an-email ')).toEqual(['not-an-email']);
  });
});

describe('isValidParticipantId', () => {
  it.each(['P0123456789abcdef', 'P0123456789ABCDEF', 'Pffffffffffffffff'])('accepts %s', (id) => {
    expect(id).toHaveLength(17);
    expect(isValidParticipantId(id)).toBe(true);
  });
  it.each([
    ['empty', ''],
    ['lower-case prefix', 'p0123456789abcdef'],
    ['16 characters', 'P0123456789abcde'],
    ['18 characters', 'P0123456789abcdef0'],
    ['non-hex', 'P0123456789abcdeg'],
    ['no prefix', '00123456789abcdef'],
    ['whitespace', ' P0123456789abcdef'],
  ])('rejects %s', (_label, id) => {
    expect(isValidParticipantId(id)).toBe(false);
  });
});

describe('isValidVerificationCode', () => {
  it('accepts exactly 6 digits', () => {
    expect(isValidVerificationCode('012345')).toBe(true);
  });
  it.each(['', '12345', '1234567', '12345a', ' 123456', '12 345', '１２３４５６'])(
    'rejects %j',
    (code) => {
      expect(isValidVerificationCode(code)).toBe(false);
    },
  );
  it('input formatting keeps at most 6 digits', () => {
    expect(formatVerificationCodeInput('12a3-45678')).toBe('123456');
  });
});

describe('parseIsoDate and isValidIsoDate', () => {
  it('parses a real date', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
  });
  it.each(['2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-4-1', '20240401', ''])(
    'rejects %j',
    (value) => {
      expect(isValidIsoDate(value)).toBe(false);
    },
  );
  it('accepts leap day in a leap century year only', () => {
    expect(isValidIsoDate('2000-02-29')).toBe(true);
    expect(isValidIsoDate('1900-02-29')).toBe(false);
  });
  it('toLocalIsoDate pads month and day', () => {
    expect(toLocalIsoDate(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});

describe('ageInYears and isAtLeastAge', () => {
  it('counts whole years', () => {
    expect(ageInYears('2000-06-15', new Date(2026, 5, 15))).toBe(26);
    expect(ageInYears('2000-06-15', new Date(2026, 5, 14))).toBe(25);
  });
  it('is 17 on the day before the 18th birthday and 18 on the day', () => {
    expect(ageInYears('2008-03-10', new Date(2026, 2, 9))).toBe(17);
    expect(isAtLeastAge('2008-03-10', new Date(2026, 2, 9))).toBe(false);
    expect(ageInYears('2008-03-10', new Date(2026, 2, 10))).toBe(18);
    expect(isAtLeastAge('2008-03-10', new Date(2026, 2, 10))).toBe(true);
  });
  it('handles a month boundary (birthday on the 1st)', () => {
    expect(isAtLeastAge('2008-01-01', new Date(2025, 11, 31))).toBe(false);
    expect(isAtLeastAge('2008-01-01', new Date(2026, 0, 1))).toBe(true);
  });
  it('treats 1 March as the birthday of a 29 February birth in common years', () => {
    expect(ageInYears('2008-02-29', new Date(2026, 1, 28))).toBe(17);
    expect(isAtLeastAge('2008-02-29', new Date(2026, 1, 28))).toBe(false);
    expect(ageInYears('2008-02-29', new Date(2026, 2, 1))).toBe(18);
    expect(isAtLeastAge('2008-02-29', new Date(2026, 2, 1))).toBe(true);
  });
  it('uses 29 February itself in leap years', () => {
    expect(ageInYears('2004-02-29', new Date(2024, 1, 28))).toBe(19);
    expect(ageInYears('2004-02-29', new Date(2024, 1, 29))).toBe(20);
  });
  it('returns NaN / false for malformed dates', () => {
    expect(ageInYears('2008-02-30', new Date(2026, 0, 1))).toBeNaN();
    expect(ageInYears('not a date', new Date(2026, 0, 1))).toBeNaN();
    expect(isAtLeastAge('', new Date(2026, 0, 1))).toBe(false);
  });
  it('is negative for a future birth date and never old enough', () => {
    expect(ageInYears('2030-01-01', new Date(2026, 0, 1))).toBe(-4);
    expect(isAtLeastAge('2030-01-01', new Date(2026, 0, 1))).toBe(false);
  });
  it('takes a custom minimum age', () => {
    expect(isAtLeastAge('2010-01-01', new Date(2026, 0, 1), 16)).toBe(true);
  });
});

describe('countDaysInclusive', () => {
  it('counts a range inclusively', () => {
    expect(countDaysInclusive('2026-01-01', '2026-01-03')).toBe(3);
    expect(countDaysInclusive('2026-01-01', '2026-01-01')).toBe(1);
  });
  it('spans month, leap-day and DST boundaries by calendar days', () => {
    expect(countDaysInclusive('2024-02-28', '2024-03-01')).toBe(3);
    expect(countDaysInclusive('2026-03-01', '2026-03-31')).toBe(31);
    expect(countDaysInclusive('2025-12-31', '2026-01-01')).toBe(2);
  });
  it('is 1 for a single date', () => {
    expect(countDaysInclusive('2026-01-01')).toBe(1);
    expect(countDaysInclusive('2026-01-01', '')).toBe(1);
    expect(countDaysInclusive('2026-01-01', null)).toBe(1);
  });
  it('is 0 for a missing or bad start, a bad end or an end before the start', () => {
    expect(countDaysInclusive('')).toBe(0);
    expect(countDaysInclusive('2026-01-05', '2026-01-04')).toBe(0);
    expect(countDaysInclusive('2026-01-05', '2026-02-30')).toBe(0);
  });
});

describe('bucketNameForStudy', () => {
  it('lower-cases and replaces every non-alphanumeric with a hyphen', () => {
    expect(bucketNameForStudy('AbC_12.x y')).toBe('study-abc-12-x-y-data');
  });
  it('keeps a plain id', () => {
    expect(bucketNameForStudy('abc123')).toBe('study-abc123-data');
    expect(bucketNameForStudy(42)).toBe('study-42-data');
  });
  it('replaces each character, not runs, including non-ASCII', () => {
    expect(bucketNameForStudy('A--B!!é')).toBe('study-a--b----data');
  });
  it('keeps the hyphens of a UUID', () => {
    expect(bucketNameForStudy('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe(
      'study-3f2504e0-4f89-11d3-9a0c-0305e82c3301-data',
    );
  });
});

describe('defaultExtractionName', () => {
  it('uses the local calendar date and the participant count', () => {
    expect(defaultExtractionName(new Date(2026, 10, 3, 23, 59), 4)).toBe(
      'Extraction_2026-11-03_4participants',
    );
    expect(defaultExtractionName(new Date(2026, 0, 9), 1)).toBe(
      'Extraction_2026-01-09_1participants',
    );
  });
});

describe('truncateJobName and previewList', () => {
  it('cuts names longer than 10 characters', () => {
    expect(truncateJobName('Extraction_2026')).toBe('Extraction...');
    expect(truncateJobName('0123456789')).toBe('0123456789');
    expect(truncateJobName('')).toBe('');
  });
  it('shows the first 5 items and +N more', () => {
    expect(previewList([1, 2, 3, 4, 5, 6, 7])).toEqual({
      items: [1, 2, 3, 4, 5],
      moreLabel: '+2 more',
    });
    expect(previewList([1, 2, 3, 4, 5])).toEqual({ items: [1, 2, 3, 4, 5], moreLabel: null });
    expect(previewList([])).toEqual({ items: [], moreLabel: null });
  });
});

describe('participantDisplayStatus', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('is inactive without authorization', () => {
    expect(participantDisplayStatus({ authorizationStatus: false, accessToken: 't' }, now)).toBe(
      'inactive',
    );
    expect(participantDisplayStatus({}, now)).toBe('inactive');
  });
  it('follows the expiry when a token and expiry exist', () => {
    expect(
      participantDisplayStatus(
        { authorizationStatus: true, accessToken: 't', expiresAt: '2026-11-21T12:00:01Z' },
        now,
      ),
    ).toBe('active');
    expect(
      participantDisplayStatus(
        { authorizationStatus: true, accessToken: 't', expiresAt: now.getTime() },
        now,
      ),
    ).toBe('inactive');
  });
  it('is active when authorized without an expiry', () => {
    expect(participantDisplayStatus({ authorizationStatus: true, accessToken: 't' }, now)).toBe(
      'active',
    );
    expect(participantDisplayStatus({ authorizationStatus: true }, now)).toBe('active');
  });
});

describe('files', () => {
  it('recognises CSV by type or extension', () => {
    expect(isCsvFile({ name: 'roster.txt', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'ROSTER.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'roster.xlsx', type: 'application/vnd.ms-excel' })).toBe(false);
  });
  it('validates CSV type, size limit and emptiness in that order', () => {
    expect(validateCsvFile({ name: 'a.pdf', type: 'application/pdf', size: 0 })).toBe(
      'File must be a CSV file',
    );
    expect(validateCsvFile({ name: 'a.csv', type: 'text/csv', size: 5_242_880 })).toBe(
      'File size must be less than 5MB',
    );
    expect(validateCsvFile({ name: 'a.csv', type: 'text/csv', size: 5_242_879 })).toBeNull();
    expect(validateCsvFile({ name: 'a.csv', type: 'text/csv', size: 0 })).toBe('CSV file is empty');
  });
  it('reads file extensions', () => {
    expect(fileExtension('Report.Final.PDF')).toBe('pdf');
    expect(fileExtension('noext')).toBe('');
    expect(fileExtension('.gitignore')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
  });
  it('allows only the participant document extensions', () => {
    for (const name of ['a.pdf', 'a.doc', 'a.docx', 'a.jpg', 'a.JPEG', 'a.png', 'a.gif']) {
      expect(isAllowedParticipantDocument(name)).toBe(true);
    }
    for (const name of ['a.exe', 'a.txt', 'pdf', 'a.pdf.exe']) {
      expect(isAllowedParticipantDocument(name)).toBe(false);
    }
  });
  it('allows researcher documents of the right type up to 10 MB', () => {
    expect(isAllowedResearcherDocument({ type: 'application/pdf', size: 10 * 1024 * 1024 })).toBe(
      true,
    );
    expect(isAllowedResearcherDocument({ type: 'image/jpeg', size: 1 })).toBe(true);
    expect(isAllowedResearcherDocument({ type: 'image/png', size: 10 * 1024 * 1024 + 1 })).toBe(
      false,
    );
    expect(isAllowedResearcherDocument({ type: 'image/gif', size: 100 })).toBe(false);
    expect(isAllowedResearcherDocument({ type: 'application/pdf', size: 0 })).toBe(false);
  });
});

describe('formatDateShort', () => {
  it('shows a calendar date as M/D/YYYY in any zone', () => {
    expect(formatDateShort('2026-03-07')).toBe('3/7/2026');
    expect(formatDateShort('2026-12-31', 'Pacific/Honolulu')).toBe('12/31/2026');
  });
  it('shows timestamps in the given time zone', () => {
    expect(formatDateShort('2026-03-07T23:30:00Z', 'UTC')).toBe('3/7/2026');
    expect(formatDateShort('2026-03-07T23:30:00Z', 'Asia/Tokyo')).toBe('3/8/2026');
    expect(formatDateShort(new Date(Date.UTC(2026, 0, 2)), 'UTC')).toBe('1/2/2026');
    expect(formatDateShort(Date.UTC(2026, 0, 2), 'UTC')).toBe('1/2/2026');
  });
  it('gives empty text for missing or invalid input', () => {
    expect(formatDateShort(null)).toBe('');
    expect(formatDateShort(undefined)).toBe('');
    expect(formatDateShort('')).toBe('');
    expect(formatDateShort('nope')).toBe('');
    expect(formatDateShort('2026-02-30')).toBe('');
  });
});
