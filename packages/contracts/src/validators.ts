/**
 * Pure validation and formatting rules of the product (see docs/product.md). The zod schemas, the
 * web forms and the server services all call these, so a rule is written exactly once. No function
 * reads the clock: callers pass "today" so results are reproducible in tests and on servers in any
 * time zone.
 */

import {
  CSV_MAX_BYTES,
  EXTRACTION_JOB_NAME_MAX_CHARS,
  MIN_PARTICIPANT_AGE,
  PARTICIPANT_DOCUMENT_EXTENSIONS,
  PREVIEW_ITEMS,
  RESEARCHER_DOCUMENTS,
  STUDY_CODE,
  VERIFICATION_CODE_LENGTH,
} from './constants.js';
import { CSV_MESSAGES } from './texts/messages.js';

// ---------------------------------------------------------------------------------------------
// Study code

/** 6 to 8 upper-case letters and digits; lower case is invalid, so format input first. */
export const STUDY_CODE_PATTERN = /^[A-Z0-9]{6,8}$/;

export const isValidStudyCode = (value: string): boolean => STUDY_CODE_PATTERN.test(value);

/** Removes every whitespace character and upper-cases. */
export const formatStudyCode = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/**
 * What a study-code input shows while typing: formatted and cut to the input's limit
 * (8 on participant screens, 6 in the collaborator join dialog).
 */
export const formatStudyCodeInput = (
  value: string,
  maxLength: number = STUDY_CODE.maxLength,
): string => formatStudyCode(value).slice(0, maxLength);

// ---------------------------------------------------------------------------------------------
// E-mail

/** A deliberately simple e-mail check: local@domain.tld with no spaces and a single '@'. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isValidEmail = (value: string): boolean => EMAIL_PATTERN.test(value);

/** Participant e-mails are lower-cased and trimmed before they are sent or compared. */
export const normalizeEmail = (value: string): string => value.trim().toLowerCase();

/** 'a@x.com, ,b@y.org,' -> ['a@x.com', 'b@y.org']: comma separated, trimmed, empties dropped. */
export const parseEmailList = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

// ---------------------------------------------------------------------------------------------
// Text

/**
 * Half of a UTF-16 surrogate pair without its other half. JSON can carry one (`"\ud800"`), but
 * it is no Unicode character: UTF-8 cannot encode it and PostgreSQL refuses it in json values.
 */
const LONE_SURROGATE_PATTERN =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a text holds no lone surrogate, i.e. is well-formed Unicode. */
export const hasNoLoneSurrogate = (value: string): boolean => !LONE_SURROGATE_PATTERN.test(value);

/** True when a text holds no U+0000 (PostgreSQL cannot store it in a text column). */
export const hasNoNullCharacter = (value: string): boolean => !value.includes('\u0000');

// ---------------------------------------------------------------------------------------------
// Participant ids and verification codes

/** 'P' + 16 hex characters. Either hex case is accepted; ids are compared as stored. */
export const PARTICIPANT_ID_PATTERN = /^P[0-9a-fA-F]{16}$/;

export const isValidParticipantId = (value: string): boolean => PARTICIPANT_ID_PATTERN.test(value);

export const VERIFICATION_CODE_PATTERN = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);

const digitsOf = (value: string): string => value.replace(/\D/g, '');

/** Exactly 6 digits, nothing else. */
export const isValidVerificationCode = (value: string): boolean =>
  VERIFICATION_CODE_PATTERN.test(value);

/** Code input as typed: digits only, at most 6. */
export const formatVerificationCodeInput = (value: string): string =>
  digitsOf(value).slice(0, VERIFICATION_CODE_LENGTH);

// ---------------------------------------------------------------------------------------------
// Calendar dates ('yyyy-mm-dd')

const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CalendarDate {
  year: number;
  month: number; // 1-12
  day: number;
}

/** Parses 'yyyy-mm-dd' into its parts, or null when the text is not a real calendar date. */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = ISO_DATE_PATTERN.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  // Date.UTC rolls 2023-02-29 over to March; a round trip exposes impossible dates.
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1) return null;
  if (probe.getUTCDate() !== day) return null;
  return { year, month, day };
}

export const isValidIsoDate = (value: string): boolean => parseIsoDate(value) !== null;

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** The local calendar date of `date` as 'yyyy-mm-dd' (what the person sees on their clock). */
export const toLocalIsoDate = (date: Date): string =>
  `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/**
 * Whole years between a birth date and `today`'s local calendar date. Someone born on 29 February
 * has their birthday on 1 March in common years (the day count passes 28 February). Returns NaN
 * for a malformed date of birth.
 */
export function ageInYears(dateOfBirth: string, today: Date): number {
  const birth = parseIsoDate(dateOfBirth);
  if (!birth) return Number.NaN;
  const month = today.getMonth() + 1;
  const day = today.getDate();
  let age = today.getFullYear() - birth.year;
  if (month < birth.month || (month === birth.month && day < birth.day)) age -= 1;
  return age;
}

/** True when the person is at least `minAge` (default 18) on `today`; false for bad dates. */
export const isAtLeastAge = (
  dateOfBirth: string,
  today: Date,
  minAge: number = MIN_PARTICIPANT_AGE,
): boolean => {
  const age = ageInYears(dateOfBirth, today);
  return !Number.isNaN(age) && age >= minAge;
};

const MS_PER_DAY = 86_400_000;

/**
 * Days from start to end inclusive ('2026-01-01'..'2026-01-03' = 3). A missing end means a single
 * date (1 day); a bad date or an end before the start gives 0, which disables Start Extraction.
 */
export function countDaysInclusive(startDate: string, endDate?: string | null): number {
  const start = parseIsoDate(startDate);
  if (!start) return 0;
  if (endDate == null || endDate === '') return 1;
  const end = parseIsoDate(endDate);
  if (!end) return 0;
  const diff =
    (Date.UTC(end.year, end.month - 1, end.day) -
      Date.UTC(start.year, start.month - 1, start.day)) /
    MS_PER_DAY;
  return diff < 0 ? 0 : diff + 1;
}

// ---------------------------------------------------------------------------------------------
// Storage and extraction

/** 'study-{id}-data' with the id lower-cased and every non [a-z0-9] character made a hyphen. */
export const bucketNameForStudy = (studyId: string | number): string =>
  `study-${String(studyId)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')}-data`;

/**
 * 'Extraction_{yyyy-mm-dd}_{N}participants'. The date is the local calendar date, because the
 * name is proposed to the researcher on their own clock.
 */
export const defaultExtractionName = (date: Date, participantCount: number): string =>
  `Extraction_${toLocalIsoDate(date)}_${participantCount}participants`;

/** Job names in the job list: 10 characters then '...'. */
export const truncateJobName = (name: string): string =>
  name.length > EXTRACTION_JOB_NAME_MAX_CHARS
    ? `${name.slice(0, EXTRACTION_JOB_NAME_MAX_CHARS)}...`
    : name;

/** First 5 items plus the '+N more' label (null when nothing is hidden). */
export function previewList<T>(items: readonly T[]): { items: T[]; moreLabel: string | null } {
  const hidden = items.length - PREVIEW_ITEMS;
  return {
    items: items.slice(0, PREVIEW_ITEMS),
    moreLabel: hidden > 0 ? `+${hidden} more` : null,
  };
}

export type ParticipantDisplayStatus = 'active' | 'inactive';

export interface ParticipantAuthorization {
  authorizationStatus?: boolean | null;
  accessToken?: string | null;
  /** ISO timestamp, epoch milliseconds or Date of the access token's expiry. */
  expiresAt?: string | number | Date | null;
}

/**
 * The participant display status (docs/product.md#participant-display-status): inactive without
 * authorization; with a token and an expiry, active only while the expiry is in the future;
 * authorized without an expiry, active.
 */
export function participantDisplayStatus(
  participant: ParticipantAuthorization,
  now: Date,
): ParticipantDisplayStatus {
  if (!participant.authorizationStatus) return 'inactive';
  if (participant.accessToken && participant.expiresAt != null) {
    const expiry = new Date(participant.expiresAt).getTime();
    return expiry > now.getTime() ? 'active' : 'inactive';
  }
  return 'active';
}

// ---------------------------------------------------------------------------------------------
// Files

export interface FileFacts {
  name: string;
  /** MIME type as the browser or multipart part reports it; may be ''. */
  type: string;
  size: number;
}

/** CSV by MIME type or by '.csv' extension. */
export const isCsvFile = (file: Pick<FileFacts, 'name' | 'type'>): boolean =>
  file.type === 'text/csv' || file.name.toLowerCase().endsWith('.csv');

/**
 * The roster upload checks, in the order the product reports them: type, size (must be under 5 MB,
 * so exactly 5242880 bytes is refused), then emptiness. Returns the message to show, or null when
 * fine.
 */
export function validateCsvFile(file: FileFacts): string | null {
  if (!isCsvFile(file)) return CSV_MESSAGES.notCsv;
  if (file.size >= CSV_MAX_BYTES) return CSV_MESSAGES.tooLarge;
  if (file.size === 0) return CSV_MESSAGES.empty;
  return null;
}

/** Lower-cased extension after the last dot, or '' when the name has none. */
export const fileExtension = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 || dot === fileName.length - 1 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/** Participant profile documents: pdf, doc, docx, jpg, jpeg, png, gif. */
export const isAllowedParticipantDocument = (fileName: string): boolean =>
  (PARTICIPANT_DOCUMENT_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));

/** Researcher verification documents: PDF, PNG or JPEG, at most 10 MB each. */
export const isAllowedResearcherDocument = (file: Pick<FileFacts, 'type' | 'size'>): boolean =>
  (RESEARCHER_DOCUMENTS.mimeTypes as readonly string[]).includes(file.type) &&
  file.size > 0 &&
  file.size <= RESEARCHER_DOCUMENTS.maxFileBytes;

// ---------------------------------------------------------------------------------------------
// Display formatting (file sizes: document-size.ts)

const SHORT_DATE = { year: 'numeric', month: 'numeric', day: 'numeric' } as const;

/**
 * "en-US short format" read as en-US numeric month/day/year, e.g. '3/7/2026' - what
 * `toLocaleDateString('en-US')` prints. We keep the 4-digit year (Intl's dateStyle 'short' would
 * give '3/7/26'), since dates of birth with 2-digit years are ambiguous.
 * A date-only 'yyyy-mm-dd' is a calendar date and is shown as is in every time zone; timestamps
 * are shown in `timeZone` (default: the runtime's). Missing or invalid input gives ''.
 */
export function formatDateShort(
  value: string | number | Date | null | undefined,
  timeZone?: string,
): string {
  if (value == null || value === '') return '';
  if (typeof value === 'string' && ISO_DATE_PATTERN.test(value)) {
    const parts = parseIsoDate(value);
    return parts ? `${parts.month}/${parts.day}/${parts.year}` : '';
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { ...SHORT_DATE, timeZone }).format(date);
}
