/**
 * E-mail and SMS codes: 6 digits, 10 minutes, a new one no sooner than 30 s,
 * 3 wrong attempts end a code. A verified code answers a participant session.
 */

import {
  participantSessionHeadersSchema,
  sendCodeResponseSchema,
  sendEmailCodeBodySchema,
  sendPhoneCodeBodySchema,
  verificationErrorDetailsSchema,
  verificationStatusParamsSchema,
  verificationStatusQuerySchema,
  verificationStatusResponseSchema,
  verifyCodeResponseSchema,
  verifyEmailCodeBodySchema,
  verifyPhoneCodeBodySchema,
} from '../schemas/enrolment.js';
import { defineOperation } from './operation.js';

const tags = ['participant verification'] as const;

/** Any mismatch of participant, e-mail or phone and study answers the same 400. */
const SUBJECT_ERRORS = { 400: ['VERIFICATION_FAILED'], 404: ['STUDY_NOT_FOUND'] } as const;

const SEND_ERRORS = [SUBJECT_ERRORS, { 429: ['RESEND_TOO_SOON', 'TOO_MANY_CODES'] }] as const;
/** How long to wait (RESEND_TOO_SOON and the per-subject limit). */
const SEND_DETAILS = { 429: verificationErrorDetailsSchema } as const;

const VERIFY_ERRORS = [
  SUBJECT_ERRORS,
  { 400: ['NO_CODE', 'INVALID_CODE', 'TOO_MANY_ATTEMPTS', 'CODE_USED', 'CODE_EXPIRED'] },
] as const;
/** A wrong code's attemptsUsed and maxAttempts (n/3). */
const VERIFY_DETAILS = { 400: verificationErrorDetailsSchema } as const;

export const sendEmailCode = defineOperation({
  method: 'POST',
  path: '/api/verification/send-email-code',
  summary: "Send a 6-digit code to the participant's e-mail",
  description:
    "'Verification code sent to your email!'. 429 RESEND_TOO_SOON within 30 s of the previous code (details.retryAfterSeconds); 429 TOO_MANY_CODES past 6 codes an hour to one address. Any mismatch of participantId, e-mail and study code answers 'Verification failed. Please check your information and try again.'.",
  tags,
  auth: 'public',
  body: sendEmailCodeBodySchema,
  response: sendCodeResponseSchema,
  errors: SEND_ERRORS,
  errorDetails: SEND_DETAILS,
});

export const verifyEmailCode = defineOperation({
  method: 'POST',
  path: '/api/verification/verify-email-code',
  summary: 'Verify the e-mail code; answers the verification status and a participant session',
  description:
    "'Email verification successful!' with data.verificationStatus and session (send session.sessionId as x-participant-session). A wrong code: 400 'Invalid verification code' with details.attemptsUsed (n/3); the third: 'Too many failed attempts. Please request a new code.' and the code ends.",
  tags,
  auth: 'public',
  body: verifyEmailCodeBodySchema,
  response: verifyCodeResponseSchema,
  errors: VERIFY_ERRORS,
  errorDetails: VERIFY_DETAILS,
});

export const sendPhoneCode = defineOperation({
  method: 'POST',
  path: '/api/verification/send-phone-code',
  summary: 'Send a 6-digit code by SMS to the phone number on record',
  description:
    "'Verification code sent to your phone!'. The number must be the one on the roster or participant record; codes never go to another number.",
  tags,
  auth: 'public',
  body: sendPhoneCodeBodySchema,
  response: sendCodeResponseSchema,
  errors: SEND_ERRORS,
  errorDetails: SEND_DETAILS,
});

export const verifyPhoneCode = defineOperation({
  method: 'POST',
  path: '/api/verification/verify-phone-code',
  summary: 'Verify the SMS code; answers the verification status and a participant session',
  tags,
  auth: 'public',
  body: verifyPhoneCodeBodySchema,
  response: verifyCodeResponseSchema,
  errors: VERIFY_ERRORS,
  errorDetails: VERIFY_DETAILS,
});

export const getVerificationStatus = defineOperation({
  method: 'GET',
  path: '/api/verification/status/:participantId',
  summary: 'The verification status record of a participant',
  description:
    "The real record only to the participant's own verified session (x-participant-session); anyone else who names a person on the study gets the record of an address not yet verified (verificationStatus 'none'), the same for an invited, an enrolled and a verified person.",
  tags,
  auth: 'public',
  headers: participantSessionHeadersSchema,
  params: verificationStatusParamsSchema,
  query: verificationStatusQuerySchema,
  response: verificationStatusResponseSchema,
  errors: SUBJECT_ERRORS,
});
