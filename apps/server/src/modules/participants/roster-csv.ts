import {
  CSV_MESSAGES,
  ROSTER_MAX_ROWS,
  type RosterRow,
  STUDY_DETAIL_MESSAGES,
} from '@research/contracts';
import { parse } from 'csv-parse/sync';
import { AppError, badRequest } from '../../errors.js';

/** Header names, compared without case, spaces, dashes and underscores. */
const HEADER_ALIASES: Record<keyof RosterRow, string[]> = {
  email: ['email', 'emailaddress', 'mail', 'participantemail'],
  phoneNumber: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'cell'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
};
const normalizeHeader = (value: string) => value.toLowerCase().replace(/[\s_\-.]/g, '');

/** zip (xlsx, docx), pdf, png, gif and jpeg files start with these bytes. */
const BINARY_SIGNATURES = [
  Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  Buffer.from('%PDF'),
  Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  Buffer.from('GIF8'),
  Buffer.from([0xff, 0xd8, 0xff]),
];

/**
 * Text that a person saved as CSV: no NUL bytes, and not some other format renamed (zip, pdf,
 * images and office files start with these signatures). Checked by content, since any file can
 * be named .csv.
 */
function looksLikeText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  if (BINARY_SIGNATURES.some((signature) => data.subarray(0, signature.length).equals(signature)))
    return false;
  // Invalid UTF-8 turns into replacement characters; a few can be a typo, many mean binary.
  const text = data.toString('utf8');
  const replaced = text.split('\ufffd').length - 1;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  const controls = (text.match(/[\u0001-\u0008\u000e-\u001f]/g) ?? []).length;
  return replaced + controls <= Math.max(2, text.length / 1000);
}

/** ';' when the header line has more semicolons than commas (European spreadsheets). */
function delimiterOf(text: string): ',' | ';' {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (char: string) => firstLine.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * Reads a roster CSV: BOM, CRLF, quoted fields, ',' or ';'. Header names are matched
 * loosely; a file without a recognisable header but whose first column holds e-mails is read as
 * e-mail[, phone[, first name, last name]]. Throws with the product's messages, and refuses more
 * than ROSTER_MAX_ROWS rows (the cap JSON rosters have too).
 */
export function parseRosterCsv(data: Buffer): RosterRow[] {
  if (data.length === 0) throw badRequest(CSV_MESSAGES.empty, 'CSV_EMPTY');
  if (!looksLikeText(data)) throw new AppError(415, 'NOT_CSV', CSV_MESSAGES.notCsv);
  const text = data.toString('utf8').replace(/^\ufeff/, '');
  if (text.trim() === '') throw badRequest(CSV_MESSAGES.empty, 'CSV_EMPTY');

  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
  } catch {
    throw badRequest(CSV_MESSAGES.parseFailed, 'CSV_PARSE_FAILED');
  }
  records = records.filter((record) => record.some((cell) => cell !== ''));
  if (records.length === 0) throw badRequest(CSV_MESSAGES.empty, 'CSV_EMPTY');

  const header = (records[0] ?? []).map(normalizeHeader);
  const columns: Partial<Record<keyof RosterRow, number>> = {};
  for (const [field, aliases] of Object.entries(HEADER_ALIASES) as [keyof RosterRow, string[]][]) {
    const index = header.findIndex((name) => aliases.includes(name));
    if (index >= 0) columns[field] = index;
  }
  let body = records.slice(1);
  if (columns.email === undefined) {
    // No header: a first cell with '@' means the file is just addresses (and maybe phones).
    if (!(records[0]?.[0] ?? '').includes('@'))
      throw badRequest(STUDY_DETAIL_MESSAGES.csvMissingEmailColumn, 'CSV_NO_EMAIL_COLUMN');
    Object.assign(columns, { email: 0, phoneNumber: 1, firstName: 2, lastName: 3 });
    body = records;
  }
  if (body.length === 0) throw badRequest(CSV_MESSAGES.empty, 'CSV_EMPTY');
  if (body.length > ROSTER_MAX_ROWS)
    throw badRequest(STUDY_DETAIL_MESSAGES.csvTooManyRows(ROSTER_MAX_ROWS), 'CSV_TOO_MANY_ROWS');

  const cell = (record: string[], field: keyof RosterRow) => {
    const index = columns[field];
    const value = index === undefined ? undefined : record[index];
    return value === undefined || value === '' ? undefined : value;
  };
  return body.map((record) => ({
    email: cell(record, 'email') ?? '',
    phoneNumber: cell(record, 'phoneNumber'),
    firstName: cell(record, 'firstName'),
    lastName: cell(record, 'lastName'),
  }));
}
