/** Extraction: start a run (for several participants, or one with defaults) and follow its jobs. */

import {
  extractionEstimateBodySchema,
  extractionEstimateResponseSchema,
  extractionJobDetailResponseSchema,
  extractionJobIdParamsSchema,
  extractionJobsResponseSchema,
  extractParticipantDataBodySchema,
  extractStartResponseSchema,
  fitbitExtractDataBodySchema,
} from '../schemas/extraction.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS, RESEARCHER_ERRORS } from './roles.js';

const tags = ['extraction'] as const;

/**
 * Starting a run: every participant must exist in one study the caller is a member of (any
 * other answers as unknown, so ids cannot be probed) and have an active authorization.
 */
const START_ERRORS = [
  RESEARCHER_ERRORS,
  { 400: ['MIXED_STUDIES', 'NOT_SELECTABLE'], 404: ['PARTICIPANT_NOT_FOUND'] },
] as const;

export const extractParticipantData = defineOperation({
  method: 'POST',
  path: '/api/data-extraction/extract-participant-data',
  summary:
    'Starts an extraction run: one job per participant, run on the server into the study bucket',
  tags,
  auth: 'bearer',
  body: extractParticipantDataBodySchema,
  response: extractStartResponseSchema,
  errors: START_ERRORS,
});

export const extractData = defineOperation({
  method: 'POST',
  path: '/api/fitbit/extract-data',
  summary: 'Extracts one participant’s data (defaults: profile, today)',
  tags,
  auth: 'bearer',
  body: fitbitExtractDataBodySchema,
  response: extractStartResponseSchema,
  errors: START_ERRORS,
});

export const estimateExtraction = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/extraction-estimate',
  summary:
    'The calls a selection would make and how long it should take, from the plan and the quotas (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: extractionEstimateBodySchema,
  response: extractionEstimateResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['PARTICIPANT_NOT_FOUND'] }],
});

export const listExtractionJobs = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/extraction-jobs',
  summary: 'Jobs of the study’s 5 newest extraction runs, newest first (members only)',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params: studyIdParamsSchema,
  response: extractionJobsResponseSchema,
  errors: MEMBER_ERRORS,
});

export const getExtractionJob = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/extraction-jobs/:jobId',
  summary: 'One job with its parts: calls, rows, files, skipped types and errors',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params: studyIdParamsSchema.extend(extractionJobIdParamsSchema.shape),
  response: extractionJobDetailResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['NOT_FOUND'] }],
});
