/**
 * Participant enrolment: the direct and the
 * pre-approved flows, the profile, the secure verify and the secure-auth session calls.
 *
 * How the participant pages use them:
 * - /participant/enroll: verify-study-code → enrollDirect. With requireVerification the answer is
 *   verificationRequired (code mailed) → verify-email-code (answers `session`) → enrollDirect
 *   again with `x-participant-session` → fitbitAuthUrl.
 * - /participant/flow: verify-study-code → checkPending (its participantId stays the same) →
 *   send-*-code → verify-*-code (details.attemptsUsed for n/3) → enroll with the session → the
 *   wearable step with the session → updateInfo.
 * - After the wearable callback the answer carries a new `session` for /participant/info.
 * The browser keeps `session.sessionId` in sessionStorage; it expires after 60 minutes.
 */

import { PARTICIPANT_DOCUMENT_LIMITS } from '../constants.js';
import {
  checkPendingBodySchema,
  checkPendingResponseSchema,
  enrollBodySchema,
  enrollDirectBodySchema,
  enrollDirectResponseSchema,
  enrollResponseSchema,
  participantSessionHeadersSchema,
  participantVerifySecureBodySchema,
  participantVerifySecureResponseSchema,
  secureCompleteEnrollmentBodySchema,
  secureCompleteEnrollmentResponseSchema,
  secureSendEmailBodySchema,
  secureSessionResponseSchema,
  secureValidateSessionBodySchema,
  secureVerifyParticipantBodySchema,
  sendCodeResponseSchema,
  updateInfoResponseSchema,
} from '../schemas/enrolment.js';
import { PARTICIPANT_SESSION_DOC } from '../texts/participant.js';
import { defineOperation } from './operation.js';

const tags = ['participant enrolment'] as const;
const secureTags = ['participant secure-auth'] as const;

/** What a verified participant session can be refused with, besides not being there (401). */
const SESSION_REFUSALS = {
  403: ['PARTICIPANT_SESSION_MISMATCH', 'VERIFICATION_REQUIRED'],
} as const;

export const enrollDirect = defineOperation({
  method: 'POST',
  path: '/api/participants/enroll-direct',
  summary: 'Direct enrolment (/participant/enroll)',
  description: `Enrols the person in the study (or resumes their enrolment). With allowSelfEnrollment false only addresses on the study's pending roster may enrol ('You are not approved for this study. Please contact the researcher.', 403). With requireVerification true the answer is verificationRequired: true and an e-mail code is sent; after /api/verification/verify-email-code call again with the returned session in x-participant-session to get fitbitAuthUrl. With that session, someone already a participant gets alreadyEnrolled: true, wearableConnected and 'You are already enrolled in this study. Nothing was changed.' (the names sent are not applied; update-info changes them). ${PARTICIPANT_SESSION_DOC}`,
  tags,
  // The session is optional here: without one the answer is verificationRequired, never a 401.
  auth: 'public',
  headers: participantSessionHeadersSchema,
  body: enrollDirectBodySchema,
  response: enrollDirectResponseSchema,
  errors: {
    400: ['UNDER_AGE', 'VERIFICATION_FAILED'],
    403: ['NOT_APPROVED'],
    404: ['STUDY_NOT_FOUND'],
    429: ['TOO_MANY_CODES'],
    502: ['AUTH_URL_FAILED'],
  },
});

export const checkPending = defineOperation({
  method: 'POST',
  path: '/api/participants/check-pending',
  summary: 'Pre-approved flow: is this address on the study roster?',
  description:
    "pending: true with the participant (its participantId stays the same through enrolment) and 'You are approved for this study! Please choose your verification method.'; pending: false with 'You are not approved for this study. Please contact the researcher.'. phoneNumber is returned only when it matches the number on record (phone verification goes only there; digits compared). An address already enrolled is answered exactly as an invited one (the same view, phoneNumber only when it matches), so the answer never tells who has enrolled; only an address the study has neither invited nor enrolled hears the second.",
  tags,
  auth: 'public',
  body: checkPendingBodySchema,
  response: checkPendingResponseSchema,
  errors: { 404: ['STUDY_NOT_FOUND'] },
});

export const enroll = defineOperation({
  method: 'POST',
  path: '/api/participants/enroll',
  summary: 'Pre-approved flow: enrol a verified pending participant',
  description: `Moves the roster entry to a participant (status 'enrolled', inviter kept) in one transaction, or resumes an existing one (alreadyEnrolled: true, nothing changed); answers the wearable authorization address. ${PARTICIPANT_SESSION_DOC} (Not needed when the study does not require verification: the session is then issued here.)`,
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  body: enrollBodySchema,
  response: enrollResponseSchema,
  errors: [
    SESSION_REFUSALS,
    {
      400: ['VERIFICATION_FAILED'],
      403: ['NOT_APPROVED'],
      404: ['STUDY_NOT_FOUND'],
      502: ['AUTH_URL_FAILED'],
    },
  ],
});

export const updateInfo = defineOperation({
  method: 'POST',
  path: '/api/participants/update-info',
  summary: 'Complete the profile (multipart: fields and document_{n} files)',
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  multipart: `multipart/form-data with participantId, studyCode, firstName, lastName (at most 100 characters), additionalInfo, email and phoneNumber (read-only, ignored) and up to ${PARTICIPANT_DOCUMENT_LIMITS.maxFiles} files document_0…document_4 of at most 10 MB, recognised by content as pdf, doc (a Compound File container with a WordDocument stream), docx, jpg, jpeg, png or gif. A participant keeps at most ${PARTICIPANT_DOCUMENT_LIMITS.maxKeptFiles} documents over all submissions (413 TOO_MANY_DOCUMENTS beyond). Files go to the study bucket under participants/{participantId}/documents/. ${PARTICIPANT_SESSION_DOC} The session is checked before the body is read (401 without one); at most 5 submissions a minute per (study, e-mail) of the session.`,
  response: updateInfoResponseSchema,
  errors: [
    SESSION_REFUSALS,
    {
      400: ['BAD_MULTIPART'],
      404: ['STUDY_NOT_FOUND', 'PARTICIPANT_NOT_FOUND'],
      413: ['TOO_MANY_FILES', 'TOO_MANY_DOCUMENTS', 'FILE_TOO_LARGE'],
      415: ['UNSUPPORTED_FILE_TYPE'],
    },
  ],
});

export const verifySecure = defineOperation({
  method: 'POST',
  path: '/api/participants/verify-secure',
  summary:
    'Secure variant of /api/participants/verify: the participant verify data, to the participant session only',
  description: `Body {participantId, email} as for POST /api/participants/verify; answers data {participantId, participantEmail, studyCode, status, createdAt, fitbitTokens.accessToken (presence only)}. What makes it secure: knowing the id and e-mail is not enough. The request must carry this participant's verified session (401 PARTICIPANT_SESSION_REQUIRED without a live one, 403 VERIFICATION_REQUIRED before a code was verified, 403 PARTICIPANT_SESSION_MISMATCH for another participant's session), and the e-mail must be the participant's (404 'Participant verification failed. Please check your information.' otherwise, as for an unknown or deleted participant). Limited to 20 calls a minute per client address and 10 per (study, e-mail) of the session. ${PARTICIPANT_SESSION_DOC}`,
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  body: participantVerifySecureBodySchema,
  response: participantVerifySecureResponseSchema,
  errors: [SESSION_REFUSALS, { 404: ['PARTICIPANT_MISMATCH'] }],
});

// ---- /api/secure-auth/*: the session travels in the body as sessionId ----

export const secureVerifyParticipant = defineOperation({
  method: 'POST',
  path: '/api/secure-auth/verify-participant',
  summary: 'Open a participant session for a rostered or enrolled address',
  description:
    'The session starts unverified (verified: false) when the study requires verification; prove the address with /api/secure-auth/send-email-verification and /api/verification/verify-email-code (passing sessionId), then complete-enrollment. sessionId is the same token the x-participant-session header carries.',
  tags: secureTags,
  auth: 'public',
  body: secureVerifyParticipantBodySchema,
  response: secureSessionResponseSchema,
  errors: { 403: ['NOT_APPROVED'], 404: ['STUDY_NOT_FOUND'] },
});

export const secureSendEmail = defineOperation({
  method: 'POST',
  path: '/api/secure-auth/send-email-verification',
  summary: "Send an e-mail code to the session's participant",
  tags: secureTags,
  auth: 'public',
  body: secureSendEmailBodySchema,
  response: sendCodeResponseSchema,
  errors: {
    400: ['VERIFICATION_FAILED'],
    401: ['PARTICIPANT_SESSION_REQUIRED'],
    404: ['STUDY_NOT_FOUND'],
    429: ['RESEND_TOO_SOON', 'TOO_MANY_CODES'],
  },
});

export const secureValidateSession = defineOperation({
  method: 'POST',
  path: '/api/secure-auth/validate-session',
  summary: 'The session a sessionId names, if it is still valid',
  tags: secureTags,
  auth: 'public',
  body: secureValidateSessionBodySchema,
  response: secureSessionResponseSchema,
  errors: { 400: ['VERIFICATION_FAILED'], 401: ['PARTICIPANT_SESSION_REQUIRED'] },
});

export const secureCompleteEnrollment = defineOperation({
  method: 'POST',
  path: '/api/secure-auth/complete-enrollment',
  summary: 'Enrol the verified session participant; answers the wearable authorization address',
  description:
    'fitbitData may not carry tokens: the wearable connection is made on the server by the authorization step.',
  tags: secureTags,
  auth: 'public',
  body: secureCompleteEnrollmentBodySchema,
  response: secureCompleteEnrollmentResponseSchema,
  errors: [
    SESSION_REFUSALS,
    {
      400: ['VERIFICATION_FAILED'],
      401: ['PARTICIPANT_SESSION_REQUIRED'],
      403: ['NOT_APPROVED'],
      502: ['AUTH_URL_FAILED'],
    },
  ],
});
