/**
 * Electronic consent: the owner's versions of the consent form, the members' view of signatures,
 * the participant's step (read, sign, download their copy, withdraw) and a withdrawal recorded by
 * a researcher. No fetch, sweep or notification touches a participant without consent to the
 * version the study requires: the gate is checked by the jobs themselves.
 */

import { CONSENT_LIMITS } from '../constants.js';
import { messageResponseSchema } from '../schemas/auth.js';
import {
  consentCopyLinkQuerySchema,
  consentDraftResponseSchema,
  consentOverviewResponseSchema,
  consentPublishResponseSchema,
  consentSignatureParamsSchema,
  consentSignaturesResponseSchema,
  consentVersionParamsSchema,
  consentWithdrawalParamsSchema,
  participantConsentResponseSchema,
  publishConsentBodySchema,
  saveConsentDraftBodySchema,
  signConsentBodySchema,
  signConsentResponseSchema,
  withdrawBodySchema,
} from '../schemas/consent.js';
import { participantSessionHeadersSchema } from '../schemas/enrolment.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { PARTICIPANT_SESSION_DOC } from '../texts/participant.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS } from './roles.js';

const tags = ['consent'] as const;
const OWNER = { 403: ['OWNER_ONLY'] } as const;
const SESSION_REFUSALS = {
  403: ['PARTICIPANT_SESSION_MISMATCH', 'VERIFICATION_REQUIRED'],
} as const;
const PDF = {
  status: 200,
  description: 'The PDF file',
  contentTypes: ['application/pdf'],
} as const;

export const getConsentOverview = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/consent',
  summary: "The study's consent form: the setting, the draft and every published version (members)",
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: consentOverviewResponseSchema,
  errors: MEMBER_ERRORS,
});

export const saveConsentDraft = defineOperation({
  method: 'PUT',
  path: '/api/studies/:id/consent/draft',
  summary: 'Write the draft in Markdown with its statements (owner only)',
  description: `Replaces the draft. At most ${CONSENT_LIMITS.markdownMaxChars} characters and ${CONSENT_LIMITS.maxStatements} statements of ${CONSENT_LIMITS.statementMaxChars} characters. Raw HTML in the Markdown is shown as text, never rendered.`,
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: saveConsentDraftBodySchema,
  response: consentDraftResponseSchema,
  errors: [MEMBER_ERRORS, OWNER],
});

export const uploadConsentPdf = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/consent/draft/pdf',
  summary: 'Make the draft an uploaded PDF form (owner only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  multipart:
    'multipart/form-data with one file `pdf` (recognised by content as a PDF, at most 10 MB) and `statements`, a JSON list of the statements the participant ticks. Stored in the study bucket under consent/forms/.',
  response: consentDraftResponseSchema,
  errors: [
    MEMBER_ERRORS,
    OWNER,
    { 400: ['BAD_MULTIPART'], 413: ['FILE_TOO_LARGE'], 415: ['UNSUPPORTED_FILE_TYPE'] },
  ],
});

export const publishConsent = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/consent/publish',
  summary: 'Publish the draft as the next version (owner only)',
  description:
    'Earlier versions and their signatures stay readable. With reconsentRequired, participants who signed an earlier version are held back (nothing is fetched) until they sign this one; otherwise their signatures still count and only new participants sign this version.',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: publishConsentBodySchema,
  response: consentPublishResponseSchema,
  status: 201,
  errors: [MEMBER_ERRORS, OWNER, { 409: ['CONSENT_NO_DRAFT'] }],
});

export const downloadConsentVersionPdf = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/consent/versions/:versionId/pdf',
  summary: 'The uploaded PDF of a consent form version (members)',
  tags,
  auth: 'bearer',
  params: consentVersionParamsSchema,
  response: 'raw',
  rawResponse: PDF,
  errors: [MEMBER_ERRORS, { 404: ['CONSENT_VERSION_NOT_FOUND'] }],
});

export const listConsentSignatures = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/consent/signatures',
  summary: "The study's signatures, and the participants held back for consent (members)",
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: consentSignaturesResponseSchema,
  errors: MEMBER_ERRORS,
});

export const downloadConsentRecord = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/consent/signatures/:signatureId/pdf',
  summary: 'The signed-record PDF of one signature (members)',
  tags,
  auth: 'bearer',
  params: consentSignatureParamsSchema,
  response: 'raw',
  rawResponse: PDF,
  errors: [MEMBER_ERRORS, { 404: ['CONSENT_SIGNATURE_NOT_FOUND'] }],
});

export const recordWithdrawal = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/participants/:participantId/withdrawal',
  summary: "Record a participant's withdrawal on their behalf (members)",
  description:
    "Collection stops at once, the participant's Google grant is revoked, and the data collected so far is kept or deleted as the study's withdrawalData setting says; recorded in the audit trail.",
  tags,
  auth: 'bearer',
  params: consentWithdrawalParamsSchema,
  response: messageResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['PARTICIPANT_NOT_FOUND'], 409: ['PARTICIPANT_WITHDRAWN'] }],
});

// ---- The participant's side: the verified participant session ----

export const getParticipantConsent = defineOperation({
  method: 'GET',
  path: '/api/participants/consent',
  summary: "The consent form in force for the session's participant, and whether they signed it",
  description: `state: not-required (the study asks for none), unavailable (required, none published), pending (to sign; reconsent tells a new version replaced the one they signed), signed, withdrawn. ${PARTICIPANT_SESSION_DOC}`,
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  response: participantConsentResponseSchema,
  errors: [SESSION_REFUSALS, { 404: ['STUDY_NOT_FOUND', 'PARTICIPANT_NOT_FOUND'] }],
});

export const downloadParticipantConsentPdf = defineOperation({
  method: 'GET',
  path: '/api/participants/consent/form.pdf',
  summary: 'The consent form in force, when it is an uploaded PDF (participant session)',
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  response: 'raw',
  rawResponse: PDF,
  errors: [SESSION_REFUSALS, { 404: ['CONSENT_VERSION_NOT_FOUND'] }],
});

export const signConsent = defineOperation({
  method: 'POST',
  path: '/api/participants/consent/sign',
  summary: 'Sign the consent form in force (participant session)',
  description:
    'statements must be every statement of the version (400 CONSENT_STATEMENTS_INCOMPLETE), fullName is required; a versionId that is no longer the one in force is a 409. Stores who signed, which version and its SHA-256, when and from which address; writes the signed-record PDF into the study bucket under consent/ and mails the participant a link to their copy. Signing the version this participant already signed answers that signature and writes and mails nothing.',
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  body: signConsentBodySchema,
  response: signConsentResponseSchema,
  status: 201,
  errors: [
    SESSION_REFUSALS,
    {
      400: ['CONSENT_STATEMENTS_INCOMPLETE'],
      404: ['STUDY_NOT_FOUND', 'PARTICIPANT_NOT_FOUND', 'CONSENT_VERSION_NOT_FOUND'],
      409: ['CONSENT_VERSION_CHANGED', 'PARTICIPANT_WITHDRAWN', 'CONSENT_NOT_REQUIRED'],
    },
  ],
});

export const downloadOwnConsentCopy = defineOperation({
  method: 'GET',
  path: '/api/participants/consent/copy',
  summary: "The participant's own signed-record PDF, their latest signature (participant session)",
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  response: 'raw',
  rawResponse: PDF,
  errors: [SESSION_REFUSALS, { 404: ['CONSENT_SIGNATURE_NOT_FOUND'] }],
});

export const downloadConsentCopyByLink = defineOperation({
  method: 'GET',
  path: '/api/consent/copy',
  summary: 'A signed record by the link of its e-mail (valid 30 days)',
  tags,
  auth: 'public',
  query: consentCopyLinkQuerySchema,
  response: 'raw',
  rawResponse: PDF,
  errors: { 404: ['CONSENT_SIGNATURE_NOT_FOUND'], 410: ['CONSENT_LINK_INVALID'] },
});

export const withdrawFromStudy = defineOperation({
  method: 'POST',
  path: '/api/participants/withdraw',
  summary: 'Withdraw from the study (participant session)',
  description:
    "Collection stops at once, the Google grant is revoked, and the data collected so far is kept or deleted as the study's withdrawalData setting says; recorded in the audit trail.",
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  body: withdrawBodySchema,
  response: messageResponseSchema,
  errors: [SESSION_REFUSALS, { 404: ['PARTICIPANT_NOT_FOUND'], 409: ['PARTICIPANT_WITHDRAWN'] }],
});
