import { NOTIFY_RESEARCHER_LIMITS } from '../constants.js';
/** Studies: lists, create, read, edit, delete, join, public code look-up, bucket link. */

import { messageResponseSchema } from '../schemas/auth.js';
import { successOnlySchema } from '../schemas/errors.js';
import {
  bucketUrlResponseSchema,
  createStudySchema,
  joinStudySchema,
  notifyResearcherSchema,
  studyIdAltParamsSchema,
  studyIdParamsSchema,
  studyListQuerySchema,
  studyListResponseSchema,
  studyResponseSchema,
  updateStudySchema,
  verifyStudyCodeResponseSchema,
  verifyStudyCodeSchema,
} from '../schemas/studies.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS, RESEARCHER_ERRORS } from './roles.js';

const tags = ['studies'] as const;

const listOf = <const P extends `/${string}`>(path: P, summary: string) =>
  defineOperation({
    method: 'GET',
    path,
    summary,
    tags,
    auth: 'bearer',
    query: studyListQuerySchema,
    response: studyListResponseSchema,
    errors: RESEARCHER_ERRORS,
  });

export const listOwnedStudies = listOf(
  '/api/auth/researcher-studies',
  'Studies the signed-in researcher owns, newest first',
);
export const listCollaborativeStudies = listOf(
  '/api/auth/collaborative-studies',
  'Studies the signed-in researcher collaborates on, newest first',
);
export const listStudies = listOf(
  '/api/studies',
  'Studies the signed-in researcher owns (as /api/auth/researcher-studies)',
);

export const createStudy = defineOperation({
  method: 'POST',
  path: '/api/auth/create-study',
  summary: 'Create a study; collaborators named by e-mail are invited',
  tags,
  auth: 'bearer',
  body: createStudySchema,
  status: 201,
  response: studyResponseSchema,
  errors: RESEARCHER_ERRORS,
});

export const getStudy = defineOperation({
  method: 'GET',
  path: '/api/studies/:id',
  summary: 'One study (members only; the password only for its owner)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  response: studyResponseSchema,
  errors: MEMBER_ERRORS,
});

const updateOf = <const P extends `/${string}`>(path: P) =>
  defineOperation({
    method: 'PUT',
    path,
    summary:
      'Change name, description, duration, settings (allowSelfEnrollment, requireVerification, dataRetentionDays, removeDataDeletedAtSource) or the password (with currentPassword once the study has one) — owner only',
    tags,
    auth: 'bearer',
    params: studyIdParamsSchema,
    body: updateStudySchema,
    response: studyResponseSchema,
    errors: [
      MEMBER_ERRORS,
      { 400: ['INVALID_CURRENT_PASSWORD', 'NOTHING_TO_UPDATE'], 403: ['OWNER_ONLY'] },
    ],
  });
/** The path the dashboard has always called. */
export const updateStudy = updateOf('/api/auth/update-study/:id');
/** The same call under the REST path family of the study screen's calls (PUT update study). */
export const updateStudyRest = updateOf('/api/studies/:id');

const deleteOf = <const P extends `/${string}`>(path: P) =>
  defineOperation({
    method: 'DELETE',
    path,
    summary: 'Delete a study (owner only; hidden at once, data kept for the retention period)',
    tags,
    auth: 'bearer',
    params: studyIdParamsSchema,
    response: successOnlySchema,
    errors: [MEMBER_ERRORS, { 403: ['OWNER_ONLY'] }],
  });
export const deleteStudy = deleteOf('/api/auth/delete-study/:id');
export const deleteStudyRest = deleteOf('/api/studies/:id');

export const joinStudy = defineOperation({
  method: 'POST',
  path: '/api/auth/join-study',
  summary: 'Join a study as collaborator with its code and password',
  tags,
  auth: 'bearer',
  body: joinStudySchema,
  response: studyResponseSchema,
  errors: [
    RESEARCHER_ERRORS,
    { 400: ['INVALID_STUDY_CREDENTIALS'], 409: ['ALREADY_OWNER'], 429: ['TOO_MANY_ATTEMPTS'] },
  ],
});

export const verifyStudyCode = defineOperation({
  method: 'POST',
  path: '/api/auth/verify-study-code',
  summary: 'Public: look a study up by its code',
  tags,
  auth: 'public',
  body: verifyStudyCodeSchema,
  response: verifyStudyCodeResponseSchema,
  errors: { 404: ['STUDY_NOT_FOUND'] },
});

export const notifyResearcher = defineOperation({
  method: 'POST',
  path: '/api/auth/notify-researcher',
  summary: `Public: a participant sends a message to the study owner by e-mail. At most ${NOTIFY_RESEARCHER_LIMITS.perSenderPerHour} messages an hour per sender address and study, and ${NOTIFY_RESEARCHER_LIMITS.perStudyPerHour} an hour per study from anyone; past either, 429 TOO_MANY_MESSAGES and nothing is mailed.`,
  tags,
  auth: 'public',
  body: notifyResearcherSchema,
  response: messageResponseSchema,
  errors: { 404: ['STUDY_NOT_FOUND'], 429: ['TOO_MANY_MESSAGES'] },
});

export const getBucketUrl = defineOperation({
  method: 'GET',
  path: '/api/studies/:studyId/bucket-signed-url',
  summary: 'A signed, expiring link to the page listing the study bucket’s files (members only)',
  tags,
  auth: 'bearer',
  params: studyIdAltParamsSchema,
  response: bucketUrlResponseSchema,
  errors: MEMBER_ERRORS,
});
