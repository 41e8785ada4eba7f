/**
 * Personal access tokens of a study: a member creates, lists and revokes their own; the owner
 * also lists and revokes everyone's. None of these takes a token itself (no `tokenAccess`): a
 * script cannot mint or keep alive its own credentials.
 */

import {
  accessTokenListQuerySchema,
  accessTokenListResponseSchema,
  accessTokenParamsSchema,
  createAccessTokenBodySchema,
  createAccessTokenResponseSchema,
  revokeAccessTokenResponseSchema,
} from '../schemas/access-tokens.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import { defineOperation } from './operation.js';
import { MEMBER_ERRORS } from './roles.js';

const tags = ['access-tokens'] as const;

export const createAccessToken = defineOperation({
  method: 'POST',
  path: '/api/studies/:id/access-tokens',
  summary: 'Creates a personal access token for the study: the secret is in this answer only',
  description:
    'Members only. The token acts as the caller, for this study only, on the calls marked as taking a token (bearer `wrp_pat_…`); it expires after the chosen days (7, 30, 90 or 365). Only its SHA-256 is stored.',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  body: createAccessTokenBodySchema,
  status: 201,
  response: createAccessTokenResponseSchema,
  errors: [MEMBER_ERRORS, { 409: ['TOO_MANY_ACCESS_TOKENS'] }],
});

export const listAccessTokens = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/access-tokens',
  summary:
    'Access tokens of the study, newest first: a member sees their own, the owner everyone’s',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: accessTokenListQuerySchema,
  response: accessTokenListResponseSchema,
  errors: MEMBER_ERRORS,
});

export const revokeAccessToken = defineOperation({
  method: 'DELETE',
  path: '/api/studies/:id/access-tokens/:tokenId',
  summary: 'Revokes an access token at once: one’s own, or (the owner) any of the study’s',
  description:
    'Revoking a token already revoked answers the token as it is. A token the caller may not see answers 404.',
  tags,
  auth: 'bearer',
  params: accessTokenParamsSchema,
  response: revokeAccessTokenResponseSchema,
  errors: [MEMBER_ERRORS, { 404: ['ACCESS_TOKEN_NOT_FOUND'] }],
});
