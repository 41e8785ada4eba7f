/**
 * Field schemas shared by every request contract. Each wraps a validator from `validators.ts`, so
 * a web form (react-hook-form + zodResolver) and a Fastify route reject the same input with the
 * same text. Only zod checks and overwrites are used (no transforms), so the schemas also convert
 * to JSON Schema for OpenAPI.
 */

import { z } from 'zod';
import {
  APPLICATION_STATUSES,
  DATA_TYPES,
  MIN_PASSWORD_LENGTH,
  NAME_MAX_LENGTH,
  RESEARCHER_STATUSES,
  ROLES,
} from '../constants.js';
import { isValidOptionalPhone } from '../phone.js';
import { ACCOUNT_FORM_MESSAGES } from '../texts/auth.js';
import {
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_MESSAGES,
  REAUTH_MESSAGES,
  STUDY_CODE_MESSAGES,
  VERIFICATION_MESSAGES,
} from '../texts/messages.js';
import { AUTH_HARDENING_MESSAGES } from '../texts/messages-account-security.js';
import {
  EMAIL_PATTERN,
  formatStudyCode,
  hasNoLoneSurrogate,
  hasNoNullCharacter,
  PARTICIPANT_ID_PATTERN,
  STUDY_CODE_PATTERN,
  VERIFICATION_CODE_PATTERN,
} from '../validators.js';

/** Texts for rules the product gives no wording for (ours); kept here so there is one copy. */
export const SCHEMA_MESSAGES = {
  emailRequired: PARTICIPANT_LIST_MESSAGES.emailRequired,
  invalidEmail: PARTICIPANT_LIST_MESSAGES.invalidEmail,
  nameRequired: 'Name is required',
  nameTooLong: `Name is too long (max ${NAME_MAX_LENGTH} characters)`,
  invalidParticipantId: 'Invalid participant ID',
  invalidDate: 'Date must be a valid date in yyyy-mm-dd format',
  invalidPhone: PARTICIPANT_LIST_MESSAGES.invalidPhone,
} as const;

/**
 * The base of every text a request carries: U+0000 and lone surrogates are refused first, each
 * with a message that says why, so no schema built on it passes one through to the database
 * (where both fail). `requiredMessage` is the text for a missing or non-string value.
 */
export const textSchemaWith = (requiredMessage?: string) =>
  z
    .string(requiredMessage ? { error: requiredMessage } : undefined)
    .refine(hasNoNullCharacter, { error: AUTH_HARDENING_MESSAGES.nullCharacter, abort: true })
    .refine(hasNoLoneSurrogate, { error: AUTH_HARDENING_MESSAGES.loneSurrogate, abort: true });

export const textSchema = textSchemaWith();

/** Trimmed e-mail in the simple local@domain.tld form (EMAIL_PATTERN). */
export const emailSchema = textSchema
  .trim()
  .min(1, { error: SCHEMA_MESSAGES.emailRequired, abort: true })
  .regex(EMAIL_PATTERN, SCHEMA_MESSAGES.invalidEmail);

/** Participant e-mails are compared lower-cased and trimmed. */
export const normalizedEmailSchema = emailSchema.toLowerCase();

/** Account and study passwords: at least 6 characters, spaces count (never trimmed). */
export const passwordSchema = textSchema.min(
  MIN_PASSWORD_LENGTH,
  ACCOUNT_FORM_MESSAGES.passwordTooShort,
);

/** A required, trimmed person name of at most 100 characters. */
export const nameSchema = textSchema
  .trim()
  .min(1, { error: SCHEMA_MESSAGES.nameRequired, abort: true })
  .max(NAME_MAX_LENGTH, SCHEMA_MESSAGES.nameTooLong);

/** First and last names, with the messages the participant list shows. */
export const firstNameSchema = textSchema
  .trim()
  .min(1, { error: PARTICIPANT_MESSAGES.namesRequired, abort: true })
  .max(NAME_MAX_LENGTH, PARTICIPANT_LIST_MESSAGES.firstNameTooLong);

export const lastNameSchema = textSchema
  .trim()
  .min(1, { error: PARTICIPANT_MESSAGES.namesRequired, abort: true })
  .max(NAME_MAX_LENGTH, PARTICIPANT_LIST_MESSAGES.lastNameTooLong);

/**
 * Study code: whitespace removed and upper-cased first (as the input does), then 6 to 8 letters
 * and digits. Blank gives 'Please enter a study code'.
 */
export const studyCodeSchema = textSchema
  .overwrite(formatStudyCode)
  .min(1, { error: STUDY_CODE_MESSAGES.required, abort: true })
  .regex(STUDY_CODE_PATTERN, STUDY_CODE_MESSAGES.invalidFormat);

/** 'P' + 16 hex characters. */
export const participantIdSchema = textSchema
  .trim()
  .min(1, { error: REAUTH_MESSAGES.participantIdRequired, abort: true })
  .regex(PARTICIPANT_ID_PATTERN, SCHEMA_MESSAGES.invalidParticipantId);

/** Exactly 6 digits. */
export const verificationCodeSchema = textSchema
  .trim()
  .min(1, { error: VERIFICATION_MESSAGES.codeRequired, abort: true })
  .regex(VERIFICATION_CODE_PATTERN, VERIFICATION_MESSAGES.invalidCodeFormat);

/** A real calendar date written 'yyyy-mm-dd' (leap days checked); JSON Schema format 'date'. */
export const isoDateSchema = z.iso.date({ error: SCHEMA_MESSAGES.invalidDate });

/** Optional phone: blank, or a possible number (10 North American digits, or +CC and the number). */
export const optionalPhoneSchema = textSchema
  .trim()
  .refine(isValidOptionalPhone, SCHEMA_MESSAGES.invalidPhone)
  .optional();

export const dataTypeSchema = z.enum(DATA_TYPES);
export const roleSchema = z.enum(ROLES);
export const researcherStatusSchema = z.enum(RESEARCHER_STATUSES);
export const applicationStatusSchema = z.enum(APPLICATION_STATUSES);
