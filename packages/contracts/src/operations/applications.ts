/**
 * Researcher applications: a researcher's own (status, previous answers, submit) and the master's
 * review (lists, approve, reject, reset, documents).
 */

import { RESEARCHER_DOCUMENTS } from '../constants.js';
import { formatSizeHuman } from '../document-size.js';
import {
  applicationIdParamsSchema,
  applicationListQuerySchema,
  applicationListResponseSchema,
  applicationStatusResponseSchema,
  approveApplicationSchema,
  documentParamsSchema,
  previousApplicationResponseSchema,
  researcherApplicationSchema,
  researcherListQuerySchema,
  researcherListResponseSchema,
  reviewApplicationSchema,
  submitApplicationResponseSchema,
} from '../schemas/applications.js';
import { successOnlySchema } from '../schemas/errors.js';
import { defineOperation } from './operation.js';
import { MASTER_ERRORS } from './roles.js';

const tags = ['applications'] as const;

export const getApplicationStatus = defineOperation({
  method: 'GET',
  path: '/api/auth/application-status',
  summary: 'The signed-in user’s researcher application (null when there is none)',
  tags,
  auth: 'bearer',
  response: applicationStatusResponseSchema,
  errors: {},
});

export const getPreviousApplication = defineOperation({
  method: 'GET',
  path: '/api/auth/previous-application',
  summary:
    'Every field of the signed-in user’s latest rejected application (also after a reset), to prefill a new one; null when there is none',
  tags,
  auth: 'bearer',
  response: previousApplicationResponseSchema,
  errors: {},
});

export const submitApplication = defineOperation({
  method: 'POST',
  path: '/api/admin/researcher-applications',
  summary:
    'Submit a researcher application (JSON, or multipart/form-data with up to 5 documents of 10 MB: PDF, PNG, JPEG)',
  tags,
  auth: 'bearer',
  body: researcherApplicationSchema,
  multipart: `The application's fields as JSON, or the same fields as form fields with up to ${RESEARCHER_DOCUMENTS.maxFiles} files in \`documents\` (PDF, PNG or JPEG, ${formatSizeHuman(RESEARCHER_DOCUMENTS.maxFileBytes)} each).`,
  status: 201,
  response: submitApplicationResponseSchema,
  errors: {
    400: ['BAD_MULTIPART', 'EMAIL_MISMATCH'],
    403: ['EMAIL_NOT_CONFIRMED'],
    409: ['MASTER_ACCOUNT', 'APPLICATION_PENDING', 'APPLICATION_APPROVED'],
    413: ['TOO_MANY_FILES', 'FILE_TOO_LARGE'],
    415: ['UNSUPPORTED_FILE_TYPE'],
  },
});

export const listApplications = defineOperation({
  method: 'GET',
  path: '/api/admin/researcher-applications',
  summary: 'Applications by status (or by e-mail), newest first; `limit=1` for counts',
  tags,
  auth: 'bearer',
  query: applicationListQuerySchema,
  response: applicationListResponseSchema,
  errors: MASTER_ERRORS,
});

export const listResearchers = defineOperation({
  method: 'GET',
  path: '/api/admin/researchers',
  summary: 'Researchers (people with an application); status=approved for active researchers',
  tags,
  auth: 'bearer',
  query: researcherListQuerySchema,
  response: researcherListResponseSchema,
  errors: MASTER_ERRORS,
});

export const approveApplication = defineOperation({
  method: 'POST',
  path: '/api/admin/researcher-applications/:id/approve',
  summary: 'Approve a pending application (optional notes)',
  tags,
  auth: 'bearer',
  params: applicationIdParamsSchema,
  body: approveApplicationSchema.optional(),
  response: successOnlySchema,
  errors: [MASTER_ERRORS, { 404: ['NOT_FOUND'], 409: ['APPLICATION_NOT_PENDING'] }],
});

export const rejectApplication = defineOperation({
  method: 'PUT',
  path: '/api/admin/researcher-applications/:id/review',
  summary: 'Reject a pending application; the reason is required',
  tags,
  auth: 'bearer',
  params: applicationIdParamsSchema,
  body: reviewApplicationSchema,
  response: successOnlySchema,
  errors: [MASTER_ERRORS, { 404: ['NOT_FOUND'], 409: ['APPLICATION_NOT_PENDING'] }],
});

export const resetApplication = defineOperation({
  method: 'PUT',
  path: '/api/admin/researcher-applications/:id/reset',
  summary: 'Reset a rejected application so its owner can apply again',
  tags,
  auth: 'bearer',
  params: applicationIdParamsSchema,
  response: successOnlySchema,
  errors: [MASTER_ERRORS, { 404: ['NOT_FOUND'], 409: ['APPLICATION_NOT_REJECTED'] }],
});

export const downloadDocument = defineOperation({
  method: 'GET',
  path: '/api/admin/researcher-applications/:id/documents/:documentId',
  summary: 'Download a verification document',
  tags,
  auth: 'bearer',
  params: documentParamsSchema,
  response: 'raw',
  rawResponse: {
    status: 200,
    description: 'The document as uploaded, as an attachment',
    contentTypes: RESEARCHER_DOCUMENTS.mimeTypes,
  },
  // NOT_FOUND: no such document of the application; OBJECT_NOT_FOUND: its file is gone.
  errors: [MASTER_ERRORS, { 404: ['NOT_FOUND', 'OBJECT_NOT_FOUND'] }],
});
