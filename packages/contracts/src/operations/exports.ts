/** Analysis-ready exports of the study dataset: start one, follow it, download it. */

import {
  exportIdParamsSchema,
  getExportResponseSchema,
  listExportsResponseSchema,
  startExportBodySchema,
  startExportResponseSchema,
} from '../schemas/exports.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS } from './roles.js';

const tags = ['exports'] as const;
const params = studyIdParamsSchema.extend(exportIdParamsSchema.shape);

export const startExport = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/exports',
  summary:
    'Starts an export of the study dataset: participants, types and local days, as Parquet and/or CSV (members only)',
  description:
    'Days the dataset does not hold yet are fetched first, within the participants’ quotas. Every participant must be in this study; any other answers PARTICIPANT_NOT_FOUND.',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params: studyIdParamsSchema,
  body: startExportBodySchema,
  status: 201,
  response: startExportResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['PARTICIPANT_NOT_FOUND'] }],
});

export const listExports = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/exports',
  summary: 'The study’s exports, newest first, with their progress (members only)',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params: studyIdParamsSchema,
  response: listExportsResponseSchema,
  errors: MEMBER_ERRORS,
});

export const getExport = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/exports/:exportId',
  summary: 'One export: its progress and, once completed, its files with sizes and SHA-256',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params,
  response: getExportResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['NOT_FOUND'] }],
});

export const downloadExport = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/exports/:exportId/archive',
  summary:
    'The completed export as one ZIP, streamed: data files, data_dictionary.csv, manifest.json and README.txt',
  tags,
  auth: 'bearer',
  tokenAccess: true,
  params,
  response: 'raw',
  rawResponse: {
    status: 200,
    description: 'The export as a ZIP attachment, written as it is read from the study bucket',
    contentTypes: ['application/zip'],
  },
  errors: [MEMBER_ERRORS, { 404: ['NOT_FOUND'], 409: ['EXPORT_NOT_READY'] }],
});
