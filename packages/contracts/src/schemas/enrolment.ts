/**
 * Participant enrolment and verification (see docs/product.md#participant-flow). Participants have
 * no account: completing a verification gives the browser a short-lived participant session (header
 * `x-participant-session`), bound to one study and one participant, which update-info, the wearable
 * step and the secure-auth calls require.
 */

import { z } from 'zod';
import {
  MAX_EMAIL_CODE_ATTEMPTS,
  NAME_MAX_LENGTH,
  PARTICIPANT_DOCUMENT_LIMITS,
  PARTICIPANT_SESSION_HEADER,
} from '../constants.js';
import { isValidOptionalPhone } from '../phone.js';
import {
  ENROLMENT_MESSAGES,
  PARTICIPANT_LIST_MESSAGES,
  VERIFICATION_MESSAGES,
} from '../texts/messages.js';
import { WEARABLE_SERVER_MESSAGES } from '../texts/wearables.js';
import { isAtLeastAge } from '../validators.js';
import {
  emailSchema,
  firstNameSchema,
  lastNameSchema,
  participantIdSchema,
  SCHEMA_MESSAGES,
  studyCodeSchema,
  verificationCodeSchema,
} from './common.js';
import { fieldErrorSchema, successSchema } from './errors.js';

const required = ENROLMENT_MESSAGES.fillRequiredFields;

/** Participant e-mail: lower-cased and trimmed before use. */
const participantEmail = z
  .string({ error: required })
  .trim()
  .toLowerCase()
  .min(1, { error: required, abort: true })
  .pipe(emailSchema);

const requiredName = (tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .max(NAME_MAX_LENGTH, tooLong);

/** 'yyyy-mm-dd', and at least 18 years old today. */
const dateOfBirthSchema = z
  .string({ error: required })
  .trim()
  .min(1, { error: required, abort: true })
  .pipe(z.iso.date({ error: SCHEMA_MESSAGES.invalidDate }))
  .refine((value) => isAtLeastAge(value, new Date()), ENROLMENT_MESSAGES.underAge);

/** A required phone number (the contact info step needs one); see `isValidOptionalPhone`. */
const requiredPhone = z
  .string({ error: ENROLMENT_MESSAGES.contactInfoRequired })
  .trim()
  .min(1, { error: ENROLMENT_MESSAGES.contactInfoRequired, abort: true })
  .refine(isValidOptionalPhone, PARTICIPANT_LIST_MESSAGES.invalidPhone);

/** The session a browser holds after a verification: opaque, short-lived, never a participant id. */
export const participantSessionSchema = z.object({
  sessionId: z.string(),
  participantId: z.string(),
  studyCode: z.string(),
  /** False until a code was verified (or the study does not ask for verification). */
  verified: z.boolean(),
  expiresAt: z.string(),
});
export type ParticipantSession = z.infer<typeof participantSessionSchema>;

/** Header schema of the calls that read a participant session. */
export const participantSessionHeadersSchema = z.object({
  [PARTICIPANT_SESSION_HEADER]: z.string().max(200).optional(),
});

const verificationStatusSchema = z.enum([
  'fully_verified',
  'email_verified',
  'phone_verified',
  'none',
]);
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

// ---- POST /api/participants/enroll-direct ----

export const enrollDirectBodySchema = z.object({
  email: participantEmail,
  firstName: requiredName(PARTICIPANT_LIST_MESSAGES.firstNameTooLong),
  lastName: requiredName(PARTICIPANT_LIST_MESSAGES.lastNameTooLong),
  dateOfBirth: dateOfBirthSchema,
  studyCode: studyCodeSchema,
});

/**
 * `verificationRequired`: the study asks for the e-mail code first; it was sent, and
 * `fitbitAuthUrl` comes once the code is verified (call again with the session).
 * `alreadyEnrolled` (only with a verified session): the address was a participant already, so
 * nothing was changed (names included); `wearableConnected` says whether their Fitbit is. The
 * phone the study has for the person (E.164, null for none) comes only with that verified
 * session, so the profile page shows the number the research team sees.
 */
export const enrollDirectResponseSchema = successSchema({
  message: z.string(),
  participantId: z.string(),
  verificationRequired: z.boolean(),
  fitbitAuthUrl: z.string().optional(),
  session: participantSessionSchema.optional(),
  alreadyEnrolled: z.boolean().optional(),
  wearableConnected: z.boolean().optional(),
  phoneNumber: z.string().nullable().optional(),
});
export type EnrollDirectResponse = z.infer<typeof enrollDirectResponseSchema>;

// ---- POST /api/participants/check-pending ----

export const checkPendingBodySchema = z.object({
  studyCode: studyCodeSchema,
  email: z
    .string({ error: ENROLMENT_MESSAGES.contactInfoRequired })
    .trim()
    .toLowerCase()
    .min(1, { error: ENROLMENT_MESSAGES.contactInfoRequired, abort: true })
    .pipe(emailSchema),
  phoneNumber: requiredPhone,
});

/**
 * A pending participant as the enrolment lookup answers it; `phoneNumber` only when it matches the
 * one on record.
 */
const pendingParticipantViewSchema = z.object({
  participantId: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  studyCode: z.string(),
  studyName: z.string(),
  /** pre-enrolled / invited, or enrolled when the address already enrolled (resume). */
  status: z.string(),
  createdAt: z.string(),
});
export type PendingParticipantView = z.infer<typeof pendingParticipantViewSchema>;

export const checkPendingResponseSchema = successSchema({
  pending: z.boolean(),
  participant: pendingParticipantViewSchema.nullable(),
  message: z.string(),
});

// ---- POST /api/participants/enroll (pre-approved flow, after a verified code) ----

export const enrollBodySchema = z.object({
  participantId: participantIdSchema,
  studyCode: studyCodeSchema,
  email: participantEmail,
});
/** `alreadyEnrolled`: the person was a participant before this call; nothing was changed. */
export const enrollResponseSchema = successSchema({
  message: z.string(),
  participantId: z.string(),
  fitbitAuthUrl: z.string(),
  session: participantSessionSchema,
  alreadyEnrolled: z.boolean().optional(),
});

// ---- POST /api/participants/update-info (multipart) ----

/** The text fields of the multipart form; files come as document_{n}. */
export const updateInfoFieldsSchema = z.object({
  participantId: participantIdSchema,
  studyCode: studyCodeSchema,
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  additionalInfo: z
    .string()
    .trim()
    .max(
      PARTICIPANT_DOCUMENT_LIMITS.additionalInfoMaxLength,
      `Additional information is too long (max ${PARTICIPANT_DOCUMENT_LIMITS.additionalInfoMaxLength} characters)`,
    )
    .optional(),
  /** Read-only on the form; checked against the record, never changed here. */
  email: z.string().trim().max(320).optional(),
  phoneNumber: z.string().trim().max(40).optional(),
});
export type UpdateInfoFields = z.input<typeof updateInfoFieldsSchema>;

const participantDocumentViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  uploadedAt: z.string(),
});
export const updateInfoResponseSchema = successSchema({
  participantId: z.string(),
  message: z.string(),
  informationCompleted: z.boolean(),
  informationCompletedAt: z.string(),
  documents: z.array(participantDocumentViewSchema),
});
export type UpdateInfoResponse = z.infer<typeof updateInfoResponseSchema>;

// ---- POST /api/participants/verify-secure ----

/** {participantId, email} as for POST /api/participants/verify; the e-mail lower-cased, trimmed. */
export const participantVerifySecureBodySchema = z.object({
  participantId: participantIdSchema,
  email: z
    .string({ error: VERIFICATION_MESSAGES.idAndEmailRequired })
    .trim()
    .toLowerCase()
    .min(1, { error: VERIFICATION_MESSAGES.idAndEmailRequired, abort: true })
    .pipe(emailSchema),
});

/**
 * What the participant verify call returns, answered only to the participant's own verified
 * session. `fitbitTokens.accessToken` says whether a token is held; the token never leaves.
 */
export const participantVerifySecureResponseSchema = successSchema({
  data: z.object({
    participantId: z.string(),
    participantEmail: z.string(),
    studyCode: z.string(),
    status: z.string(),
    createdAt: z.string(),
    fitbitTokens: z.object({ accessToken: z.boolean() }),
  }),
});

// ---- /api/verification/* ----

export const sendEmailCodeBodySchema = z.object({
  participantId: participantIdSchema,
  email: participantEmail,
  studyCode: studyCodeSchema,
});
export const sendPhoneCodeBodySchema = z.object({
  participantId: participantIdSchema,
  phoneNumber: requiredPhone,
  studyCode: studyCodeSchema,
});

export const sendCodeResponseSchema = successSchema({
  message: z.string(),
  expiresAt: z.string(),
  /** When the next code may be requested (30 s after the last one). */
  resendAfter: z.string(),
});

const sessionIdField = z.string().max(200).optional();

export const verifyEmailCodeBodySchema = sendEmailCodeBodySchema.extend({
  verificationCode: verificationCodeSchema,
  /** A secure-auth session to mark verified instead of opening a new one. */
  sessionId: sessionIdField,
});
export const verifyPhoneCodeBodySchema = sendPhoneCodeBodySchema.extend({
  verificationCode: verificationCodeSchema,
  sessionId: sessionIdField,
});

/** A participant's verification status: which channels were verified and when. */
const verificationRecordSchema = z.object({
  participantId: z.string(),
  email: z.string(),
  studyCode: z.string(),
  verificationStatus: verificationStatusSchema,
  emailVerifiedAt: z.string().nullable(),
  phoneVerifiedAt: z.string().nullable(),
});
export type VerificationRecord = z.infer<typeof verificationRecordSchema>;

export const verifyCodeResponseSchema = successSchema({
  message: z.string(),
  data: verificationRecordSchema,
  session: participantSessionSchema,
});
export type VerifyCodeResponse = z.infer<typeof verifyCodeResponseSchema>;

/**
 * The `details` of a code call's error: a wrong code's attempts so far (shown as n/3), or the
 * seconds to wait before the next code.
 */
export const verificationErrorDetailsSchema = z.object({
  fields: z.array(fieldErrorSchema).optional(),
  attemptsUsed: z.number().int().optional(),
  maxAttempts: z.literal(MAX_EMAIL_CODE_ATTEMPTS).optional(),
  retryAfterSeconds: z.number().int().optional(),
});

export const verificationStatusParamsSchema = z.object({ participantId: participantIdSchema });
export const verificationStatusQuerySchema = z.object({
  email: participantEmail,
  studyCode: studyCodeSchema,
});
export const verificationStatusResponseSchema = successSchema({ data: verificationRecordSchema });

// ---- /api/secure-auth/* (a participant session created before any code) ----

export const secureVerifyParticipantBodySchema = z.object({
  studyCode: studyCodeSchema,
  personalInfo: z.object({
    email: participantEmail,
    phoneNumber: z
      .string()
      .trim()
      .refine(isValidOptionalPhone, PARTICIPANT_LIST_MESSAGES.invalidPhone)
      .optional(),
  }),
});
export const secureSessionResponseSchema = successSchema({
  session: participantSessionSchema.extend({ verificationStatus: verificationStatusSchema }),
  message: z.string().optional(),
});

export const secureSendEmailBodySchema = z.object({
  sessionId: z.string().min(1).max(200),
  email: participantEmail,
});
export const secureValidateSessionBodySchema = z.object({ sessionId: z.string().min(1).max(200) });
/** A token field the seeds' browser used to send: the server refuses it (tokens never leave it). */
export const tokenKeptOnServer = z
  .undefined({ error: WEARABLE_SERVER_MESSAGES.tokensFromBrowser })
  .optional();
/**
 * `fitbitData` is accepted for compatibility with the seeds but never holds tokens: the wearable
 * connection is made on the server by the authorization step.
 */
export const secureCompleteEnrollmentBodySchema = z.object({
  sessionId: z.string().min(1).max(200),
  fitbitData: z
    .object({
      accessToken: tokenKeptOnServer,
      refreshToken: tokenKeptOnServer,
    })
    .optional(),
});
export const secureCompleteEnrollmentResponseSchema = successSchema({
  message: z.string(),
  participantId: z.string(),
  fitbitAuthUrl: z.string(),
  session: participantSessionSchema,
});
