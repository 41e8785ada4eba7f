/**
 * Wearable authorization. The provider
 * behind the Fitbit-named paths is the Google Health API. Tokens never appear in any response:
 * where the original PKCE path returned `access_token`/`refresh_token` to the page, the server
 * keeps them and answers only `user_id` and `scope`.
 */

import { z } from 'zod';
import { REAUTH_MESSAGES } from '../texts/messages.js';
import {
  emailSchema,
  nameSchema,
  optionalPhoneSchema,
  participantIdSchema,
  studyCodeSchema,
} from './common.js';
import { participantSessionSchema, tokenKeptOnServer } from './enrolment.js';
import { successSchema } from './errors.js';

/** The read scopes asked for: the minimum for the 12 research data types. */
export const GOOGLE_HEALTH_SCOPE_PREFIX = 'https://www.googleapis.com/auth/googlehealth.';
export const GOOGLE_HEALTH_READ_SCOPES = [
  `${GOOGLE_HEALTH_SCOPE_PREFIX}activity_and_fitness.readonly`,
  `${GOOGLE_HEALTH_SCOPE_PREFIX}health_metrics_and_measurements.readonly`,
  `${GOOGLE_HEALTH_SCOPE_PREFIX}sleep.readonly`,
  `${GOOGLE_HEALTH_SCOPE_PREFIX}profile.readonly`,
  `${GOOGLE_HEALTH_SCOPE_PREFIX}settings.readonly`,
] as const;

/** What researchers read for each read scope (tab 4 listing). */
const SCOPE_LABELS: Record<string, string> = {
  'activity_and_fitness.readonly': 'Activity',
  'health_metrics_and_measurements.readonly': 'Heart & body',
  'sleep.readonly': 'Sleep',
  'profile.readonly': 'Profile',
  'settings.readonly': 'Settings',
};

/** A scope URL shortened for people: `…googlehealth.sleep.readonly` → `Sleep`. */
export const scopeLabel = (scope: string): string => {
  if (!scope.startsWith(GOOGLE_HEALTH_SCOPE_PREFIX)) return scope;
  const name = scope.slice(GOOGLE_HEALTH_SCOPE_PREFIX.length);
  return SCOPE_LABELS[name] ?? name.replace(/\.readonly$/, '');
};

/**
 * The read scopes a grant lacks (left unticked on Google's page), in the order they are asked
 * for. `scope` may be a space-separated string, as token answers carry it.
 */
export const missingReadScopes = (granted: readonly string[] | string): string[] => {
  const have = new Set(typeof granted === 'string' ? granted.split(/\s+/) : granted);
  return GOOGLE_HEALTH_READ_SCOPES.filter((scope) => !have.has(scope));
};

/** Lifetime of an authorization attempt (the opaque state). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** At most one reauthorization e-mail per participant in this window. */
export const REAUTH_MAIL_INTERVAL_MS = 24 * 60 * 60 * 1000;

const wearableConnectionStatusSchema = z.enum(['active', 'needs_reauthorization', 'revoked']);

/** Browser storage keys of the PKCE path; cleared after use. */
export const WEARABLE_STORAGE_KEYS = {
  codeVerifier: 'fitbit_code_verifier',
  studyCode: 'fitbit_study_code',
  participantData: 'fitbit_participant_data',
} as const;

/**
 * The tab's sessionStorage key of the enrolment state (participant, contact details, session);
 * a failed callback removes it.
 */
export const ENROLMENT_STORAGE_KEY = 'participant_enrolment';

/** Messages the callback posts to the popup's opener (same origin only). */
export const WEARABLE_POPUP_MESSAGE = {
  success: 'FITBIT_AUTH_SUCCESS',
  error: 'FITBIT_AUTH_ERROR',
} as const;

/** 64 hex characters: SHA-256 of the browser's code verifier. */
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'Invalid client binding');
/** The browser's PKCE code verifier: 32 random bytes in hex. */
const browserCodeVerifierSchema = z.string().regex(/^[0-9a-f]{64}$/, 'Invalid code verifier');

/**
 * `GET /api/fitbit/auth-url`. Researchers of the participant's study call it with a bearer token;
 * a participant with the session the enrolment issues (`x-participant-session`). Without a
 * session, the e-mail that binds (participantId, studyCode, email) only reauthorizes an existing
 * connection, with the Google account already connected.
 * `clientBinding` = SHA-256(hex) of the page's code verifier: the PKCE path's exchange must
 * present the verifier, so only the browser that started the flow can finish it.
 */
export const authUrlQuerySchema = z.object({
  participantId: participantIdSchema,
  studyCode: studyCodeSchema,
  email: emailSchema.optional(),
  mode: z.enum(['popup', 'redirect']).default('redirect'),
  clientBinding: sha256Hex.optional(),
});
export const authUrlResponseSchema = successSchema({
  authUrl: z.string(),
  expiresAt: z.string(),
});

/** `POST /api/fitbit/callback`: the direct path; the state names the participant. */
export const fitbitCallbackBodySchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
  participantId: participantIdSchema.optional(),
});
export const fitbitCallbackResponseSchema = successSchema({
  participantId: z.string(),
  studyCode: z.string(),
  scope: z.string(),
  message: z.string(),
  /** A participant session for the profile step that follows. */
  session: participantSessionSchema.optional(),
});

/** `POST /api/data/exchange-fitbit-token`: the PKCE path, exchanged on the server. */
export const exchangeTokenBodySchema = z.object({
  code: z.string().min(1).max(2048),
  codeVerifier: browserCodeVerifierSchema,
  redirectUri: z.string().max(2048),
  studyCode: studyCodeSchema,
  state: z.string().min(1).max(256),
});
export const exchangeTokenResponseSchema = successSchema({
  user_id: z.string(),
  scope: z.string(),
  participantId: z.string(),
  session: participantSessionSchema.optional(),
});

/**
 * `POST /api/data/store-tokens`. The tokens are already stored by the exchange; this call confirms
 * the connection for the participant. Token fields from a browser are refused, never stored.
 */
export const storeTokensBodySchema = z.object({
  participantId: participantIdSchema,
  participantCode: studyCodeSchema,
  participantInfo: z.object({
    userId: z.string().max(64).optional(),
    fitbitUserId: z.string().max(64).optional(),
    scope: z.string().max(2048).optional(),
  }),
  accessToken: tokenKeptOnServer,
  refreshToken: tokenKeptOnServer,
});
export const storeTokensResponseSchema = successSchema({ participantId: z.string() });

/**
 * Refresh, revoke, status: a researcher (bearer; the study code may be left out) or the
 * participant, who must always name the study code (with the session or the e-mail).
 */
export const participantWearableBodySchema = z.object({
  participantId: participantIdSchema,
  studyCode: studyCodeSchema.optional(),
  email: emailSchema.optional(),
});

/** Non-secret facts about one connection. */
const wearableStatusSchema = z.object({
  participantId: z.string(),
  authorizationStatus: z.boolean(),
  status: wearableConnectionStatusSchema.nullable(),
  hasTokens: z.boolean(),
  fitbitUserId: z.string().nullable(),
  grantedScopes: z.array(z.string()),
  tokenExpiresAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
});
export type WearableStatus = z.infer<typeof wearableStatusSchema>;
export const wearableStatusResponseSchema = successSchema({ data: wearableStatusSchema });
export const refreshTokenResponseSchema = successSchema({
  data: wearableStatusSchema,
  message: z.string(),
});
export const wearableStatusQuerySchema = z.object({
  studyCode: studyCodeSchema.optional(),
  email: emailSchema.optional(),
});
export const participantIdParamsSchema = z.object({ id: participantIdSchema });

/** `POST /api/participants/verify`: one answer for any mismatch. */
export const participantVerifyBodySchema = z.object({
  participantId: participantIdSchema,
  email: z
    .string({ error: REAUTH_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, { error: REAUTH_MESSAGES.emailRequired, abort: true })
    .pipe(emailSchema),
});
/**
 * The public check of the reauthorization page: the study code and nothing else about the
 * person (status, dates and the connection's state go only to their session, verify-secure).
 */
export const participantVerifyResponseSchema = successSchema({
  data: z.object({
    participantId: z.string(),
    participantEmail: z.string(),
    studyCode: z.string(),
  }),
});
export type ParticipantVerifyResponse = z.infer<typeof participantVerifyResponseSchema>;

/** `GET /api/studies/:id/wearable-authorizations` (tab 4 listing). */
const wearableAuthorizationRowSchema = z.object({
  id: z.string(),
  participantId: z.string(),
  name: z.string(),
  email: z.string(),
  authorizationStatus: z.boolean(),
  hasTokens: z.boolean(),
  wearableUserId: z.string().nullable(),
  grantedScopes: z.array(z.string()),
  status: wearableConnectionStatusSchema.nullable(),
  tokenExpiresAt: z.string().nullable(),
});
export type WearableAuthorizationRow = z.infer<typeof wearableAuthorizationRowSchema>;
export const wearableAuthorizationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
/** One page of the listing, as the server reads it. */
export type WearableAuthorizationsQuery = z.output<typeof wearableAuthorizationsQuerySchema>;
export const wearableAuthorizationsResponseSchema = successSchema({
  authorizations: z.array(wearableAuthorizationRowSchema),
  totalCount: z.number().int(),
});

/**
 * `POST /api/local-admin/add-participant`: an operator puts a participant into a study from a
 * terminal (`npm run admin -- add-participant`), for demos and browser tests. Loopback callers
 * holding the admin key only; not in the API reference.
 */
export const addParticipantBodySchema = z.object({
  studyCode: studyCodeSchema,
  email: emailSchema.toLowerCase(),
  firstName: nameSchema.optional(),
  lastName: nameSchema.optional(),
  /** On record, so the participant can also verify by SMS and resume the pre-approved flow. */
  phoneNumber: optionalPhoneSchema,
});
export type AddParticipantInput = z.infer<typeof addParticipantBodySchema>;
export const addParticipantResponseSchema = successSchema({
  participantId: z.string(),
  studyCode: z.string(),
  /** False when the address was already a participant of the study. */
  created: z.boolean(),
});
