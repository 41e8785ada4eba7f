/**
 * Signed, expiring links to stored files: the "Go to Bucket" page listing a study bucket, and
 * the fs driver's downloads (S3 serves its own presigned links). No session: the signature in
 * the query is the credential, checked before anything is looked up. Each link names the account
 * it was issued to, whose membership of the study is checked again on every use. A script may
 * send a personal access token of the bucket's study instead of a signature (`tokenAccess`).
 */

import { z } from 'zod';
import { defineOperation } from './operation.js';

const tags = ['storage'] as const;

export const listBucket = defineOperation({
  method: 'GET',
  path: '/api/storage/buckets/:bucket',
  summary: 'List a study bucket through a signed, expiring link',
  tags,
  auth: 'public',
  tokenAccess: true,
  params: z.object({ bucket: z.string().max(100) }),
  // Every query field is optional on purpose: a link missing a part is answered like a wrong
  // or expired one (403), not with a validation error that reads as a bug.
  query: z.object({
    expires: z.string().optional(),
    cursor: z.string().max(1024).optional(),
    user: z.string().max(64).optional().describe('The account the link was issued to'),
    signature: z.string().optional(),
  }),
  response: 'raw',
  rawResponse: {
    status: 200,
    description: 'An HTML page listing the bucket’s files, each with its own signed link',
    contentTypes: ['text/html'],
  },
  errors: { 403: ['SIGNED_URL_INVALID', 'NOT_A_MEMBER'], 404: ['STUDY_DELETED'] },
});

export const downloadObject = defineOperation({
  method: 'GET',
  path: '/api/storage/objects/:bucket/*',
  summary: 'Download a stored file through a signed, expiring link',
  tags,
  auth: 'public',
  tokenAccess: true,
  params: z.object({
    bucket: z.string(),
    '*': z.string().describe('Object key; may contain slashes'),
  }),
  query: z.object({
    expires: z.string().optional().describe('Expiry, unix seconds'),
    signature: z
      .string()
      .optional()
      .describe('HMAC-SHA256 of bucket, key, expiry, filename and user'),
    filename: z.string().optional().describe('Name the browser saves the file under'),
    user: z.string().max(64).optional().describe('The account the link was issued to'),
  }),
  response: 'raw',
  rawResponse: {
    status: 200,
    description: 'The file, as an attachment, with the Content-Type it was stored with',
    contentTypes: ['*/*'],
  },
  errors: {
    403: ['SIGNED_URL_INVALID', 'NOT_A_MEMBER'],
    404: ['STUDY_DELETED', 'OBJECT_NOT_FOUND'],
  },
});
