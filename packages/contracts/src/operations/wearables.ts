/**
 * Wearables: the Google consent URL, both ways back from it (direct and PKCE), refresh, revoke,
 * status, the reauthorization page's participant check and the study's authorization listing.
 */

import { participantSessionHeadersSchema } from '../schemas/enrolment.js';
import { studyIdParamsSchema } from '../schemas/studies.js';
import {
  addParticipantBodySchema,
  addParticipantResponseSchema,
  authUrlQuerySchema,
  authUrlResponseSchema,
  exchangeTokenBodySchema,
  exchangeTokenResponseSchema,
  fitbitCallbackBodySchema,
  fitbitCallbackResponseSchema,
  participantIdParamsSchema,
  participantVerifyBodySchema,
  participantVerifyResponseSchema,
  participantWearableBodySchema,
  refreshTokenResponseSchema,
  storeTokensBodySchema,
  storeTokensResponseSchema,
  wearableAuthorizationsQuerySchema,
  wearableAuthorizationsResponseSchema,
  wearableStatusQuerySchema,
  wearableStatusResponseSchema,
} from '../schemas/wearables.js';
import { defineOperation, type ErrorMap } from './operation.js';
import { MEMBER_ERRORS } from './roles.js';

const tags = ['wearables'] as const;

/**
 * Calls on one participant's connection accept two callers, so their `auth` is
 * 'optional-bearer' (a bearer token, or none):
 * - a researcher of the participant's study with a bearer token (anyone else: not approved, or
 *   the participant answers as unknown);
 * - the participant with the session a verified code issues, in `x-participant-session`
 *   (missing or expired: 401; another participant's or not verified: 403), naming the study code.
 * Participant id, e-mail and study code are never enough (only auth-url takes them, for a
 * reauthorization bound to the connected Google account).
 */
/** The participant session a call requires: missing or expired, another's, not verified. */
const SESSION_ERRORS = {
  401: ['PARTICIPANT_SESSION_REQUIRED'],
  403: ['PARTICIPANT_SESSION_MISMATCH', 'VERIFICATION_REQUIRED'],
} as const satisfies ErrorMap;

const CALLER_ERRORS = {
  401: ['PARTICIPANT_SESSION_REQUIRED'],
  403: ['NOT_APPROVED', 'PARTICIPANT_SESSION_MISMATCH', 'VERIFICATION_REQUIRED'],
  // STUDY_NOT_FOUND only when the study is deleted while the call runs.
  404: ['PARTICIPANT_NOT_FOUND', 'STUDY_NOT_FOUND', 'PARTICIPANT_MISMATCH'],
} as const satisfies ErrorMap;

/** Where the study code is optional (researchers may leave it out), participants must name it. */
const STUDY_CODE_ERRORS = { 400: ['STUDY_CODE_REQUIRED'] } as const satisfies ErrorMap;

/** A Google answer we could not use: refused, unreadable, or Google unreachable. */
const PROVIDER_ERRORS = {
  400: ['ACCOUNT_NOT_LINKED', 'PROVIDER_REFUSED'],
  502: ['PROVIDER_ERROR'],
  503: ['PROVIDER_UNAVAILABLE'],
} as const satisfies ErrorMap;

/** Coming back from Google: the single-use state, the grant, and the account it names. */
const CONNECT_ERRORS = {
  400: ['INVALID_STATE', 'STATE_EXPIRED', 'NO_SCOPES_GRANTED'],
  // The study asks for consent and the participant has not signed it (or withdrew).
  403: ['CONSENT_REQUIRED'],
  404: ['PARTICIPANT_MISMATCH'],
  409: ['OTHER_GOOGLE_ACCOUNT', 'GOOGLE_ACCOUNT_IN_USE'],
} as const satisfies ErrorMap;

export const getAuthUrl = defineOperation({
  method: 'GET',
  path: '/api/fitbit/auth-url',
  summary:
    'A Google consent URL for a participant: a researcher of the study (bearer token), the participant with the verified session (x-participant-session), or, for reauthorization only, participant id, e-mail and study code: the URL then renews an existing connection only with its own Google account, and looks the same whether or not there is one (with nothing to renew, coming back from Google ends as an unknown link); opaque single-use state, PKCE kept on the server. Coming back from a URL the participant asked for, the callback or exchange also answers a participant session for the profile step; from a URL a researcher asked for it connects but answers no session (whoever finished it proved nothing about the participant).',
  tags,
  auth: 'optional-bearer',
  query: authUrlQuerySchema,
  response: authUrlResponseSchema,
  // The query always names the study code; without a session, a first connection is refused.
  errors: CALLER_ERRORS,
});

export const completeCallback = defineOperation({
  method: 'POST',
  path: '/api/fitbit/callback',
  summary:
    'Direct path: exchanges the code of the state it was issued for and stores the connection',
  tags,
  auth: 'public',
  body: fitbitCallbackBodySchema,
  response: fitbitCallbackResponseSchema,
  errors: [CONNECT_ERRORS, PROVIDER_ERRORS],
});

export const exchangeToken = defineOperation({
  method: 'POST',
  path: '/api/data/exchange-fitbit-token',
  summary:
    'PKCE path: the page proves it started the flow with its code verifier; the server exchanges the code and keeps the tokens. Answers user_id and scope, never a token.',
  tags,
  auth: 'public',
  body: exchangeTokenBodySchema,
  response: exchangeTokenResponseSchema,
  errors: [CONNECT_ERRORS, { 400: ['CLIENT_MISMATCH', 'REDIRECT_URI_MISMATCH'] }, PROVIDER_ERRORS],
});

export const storeTokens = defineOperation({
  method: 'POST',
  path: '/api/data/store-tokens',
  summary:
    'PKCE path, second step: confirms the connection the exchange stored, to the participant session the exchange answered (x-participant-session). Token fields are refused: tokens never come from a browser.',
  tags,
  auth: 'participant',
  headers: participantSessionHeadersSchema,
  body: storeTokensBodySchema,
  response: storeTokensResponseSchema,
  errors: [SESSION_ERRORS, { 404: ['PARTICIPANT_MISMATCH'], 409: ['NOT_CONNECTED'] }],
});

export const refreshToken = defineOperation({
  method: 'POST',
  path: '/api/fitbit/refresh-token',
  summary:
    'Refreshes the access token now (single flight per connection); an invalid grant marks the connection for reauthorization and mails the participant',
  tags,
  auth: 'optional-bearer',
  body: participantWearableBodySchema,
  response: refreshTokenResponseSchema,
  errors: [
    CALLER_ERRORS,
    STUDY_CODE_ERRORS,
    { 404: ['NOT_CONNECTED'], 409: ['NEEDS_REAUTHORIZATION'] },
    PROVIDER_ERRORS,
  ],
});

export const revokeAccess = defineOperation({
  method: 'POST',
  path: '/api/fitbit/revoke-access',
  summary: 'Revokes the grant at Google and forgets the tokens',
  tags,
  auth: 'optional-bearer',
  body: participantWearableBodySchema,
  response: refreshTokenResponseSchema,
  errors: [CALLER_ERRORS, STUDY_CODE_ERRORS, { 404: ['NOT_CONNECTED'] }, PROVIDER_ERRORS],
});

export const getWearableStatus = defineOperation({
  method: 'GET',
  path: '/api/fitbit/status/:id',
  summary: 'Non-secret facts about a participant’s connection (never a token)',
  tags,
  auth: 'optional-bearer',
  params: participantIdParamsSchema,
  query: wearableStatusQuerySchema,
  response: wearableStatusResponseSchema,
  errors: [CALLER_ERRORS, STUDY_CODE_ERRORS],
});

export const verifyParticipant = defineOperation({
  method: 'POST',
  path: '/api/participants/verify',
  summary:
    'Checks a participant id with its e-mail (reauthorization): answers the study code and nothing else about the person, the same for an invited and an enrolled one; one answer for any mismatch',
  tags,
  auth: 'public',
  body: participantVerifyBodySchema,
  response: participantVerifyResponseSchema,
  errors: { 404: ['PARTICIPANT_MISMATCH'] },
});

export const listWearableAuthorizations = defineOperation({
  method: 'GET',
  path: '/api/studies/:id/wearable-authorizations',
  summary: 'Every participant of the study with its wearable authorization (members only)',
  tags,
  auth: 'bearer',
  params: studyIdParamsSchema,
  query: wearableAuthorizationsQuerySchema,
  response: wearableAuthorizationsResponseSchema,
  errors: MEMBER_ERRORS,
});

export const addParticipant = defineOperation({
  method: 'POST',
  path: '/api/local-admin/add-participant',
  summary:
    'Operator: put a participant into a study (loopback callers holding the admin key; `npm run admin -- add-participant`)',
  tags,
  auth: 'public',
  hidden: true,
  body: addParticipantBodySchema,
  response: addParticipantResponseSchema,
  errors: { 403: ['FORBIDDEN'], 404: ['STUDY_NOT_FOUND'] },
});
