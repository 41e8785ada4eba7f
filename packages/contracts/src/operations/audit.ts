/**
 * The audit trail: a study's, for its owner, and the platform's, for the master. Both page on
 * the server (newest first, a cursor on time and id) and download as CSV with the same filters.
 */

import {
  auditFilterQuerySchema,
  auditPageQuerySchema,
  auditPageResponseSchema,
} from '../schemas/audit.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { defineOperation } from './operation.js';
import { MASTER_ERRORS, MEMBER_ERRORS } from './roles.js';

const tags = ['audit'] as const;
const OWNER_ERRORS = [MEMBER_ERRORS, { 403: ['OWNER_ONLY'] }] as const;
const csv = {
  status: 200,
  description: 'Every matching entry, newest first, as a CSV attachment written as it is read',
  contentTypes: ['text/csv'],
} as const;

export const getStudyAudit = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/audit',
  summary: 'A page of the study’s audit trail, newest first (the owner only)',
  description:
    'The study’s events (reads and downloads of participant data, exports, token uses, mail, settings, consent, participants) and the sign-ins of its current members. `actor` (an account id), `kind`, `from` and `to` (days, UTC, inclusive) filter; `cursor` is the previous page’s `nextCursor`.',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: auditPageQuerySchema,
  response: auditPageResponseSchema,
  errors: OWNER_ERRORS,
});

export const downloadStudyAudit = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/audit.csv',
  summary: 'The study’s audit trail as CSV, with the same filters (the owner only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: auditFilterQuerySchema,
  response: 'raw',
  rawResponse: csv,
  errors: OWNER_ERRORS,
});

export const getPlatformAudit = defineOperation({
  method: 'GET',
  path: '/api/admin/audit',
  summary: 'A page of the platform’s audit trail, newest first (the master only)',
  description:
    'Events of no study: applications and decisions, master actions, account security events and the master’s reads. Filters and paging as the study’s trail.',
  tags,
  auth: 'bearer',
  query: auditPageQuerySchema,
  response: auditPageResponseSchema,
  errors: MASTER_ERRORS,
});

export const downloadPlatformAudit = defineOperation({
  method: 'GET',
  path: '/api/admin/audit.csv',
  summary: 'The platform’s audit trail as CSV, with the same filters (the master only)',
  tags,
  auth: 'bearer',
  query: auditFilterQuerySchema,
  response: 'raw',
  rawResponse: csv,
  errors: MASTER_ERRORS,
});
