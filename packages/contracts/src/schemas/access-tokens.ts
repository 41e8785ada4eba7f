/**
 * Personal access tokens: a researcher's credential for scripts, bound to one study they belong
 * to, read-only, with a required expiry. The secret is shown once, at creation; the server keeps
 * only its SHA-256. The calls a token may make are the operations flagged `tokenAccess`.
 */

import { z } from 'zod';
import { ACCESS_TOKEN_MESSAGES } from '../texts/access-tokens.js';
import { textSchema } from './common.js';
import { successSchema } from './errors.js';

/** Every secret starts with this, so a leaked one is recognisable (and secret scanners can match it). */
export const ACCESS_TOKEN_PREFIX = 'wrp_pat_';
/** Characters of the secret kept and shown to recognise a token (the prefix and 6 random ones). */
export const ACCESS_TOKEN_SHOWN_LENGTH = ACCESS_TOKEN_PREFIX.length + 6;
export const ACCESS_TOKEN_NAME_MAX = 80;
/** How long a token may last: an expiry is required, a year at most. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export type AccessTokenExpiryDays = (typeof ACCESS_TOKEN_EXPIRY_DAYS)[number];
/** Active tokens one account may hold per study. */
export const ACCESS_TOKEN_MAX_ACTIVE = 20;
export const ACCESS_TOKEN_STATES = ['active', 'expired', 'revoked'] as const;
export type AccessTokenState = (typeof ACCESS_TOKEN_STATES)[number];

/** Whether a text looks like a personal access token (by its prefix; nothing is looked up). */
export const isAccessTokenSecret = (value: string) => value.startsWith(ACCESS_TOKEN_PREFIX);

/** POST /api/studies/:id/access-tokens */
export const createAccessTokenBodySchema = z.object({
  name: textSchema
    .trim()
    .min(1, ACCESS_TOKEN_MESSAGES.nameRequired)
    .max(ACCESS_TOKEN_NAME_MAX, ACCESS_TOKEN_MESSAGES.nameTooLong(ACCESS_TOKEN_NAME_MAX)),
  expiresInDays: z.literal(ACCESS_TOKEN_EXPIRY_DAYS, {
    error: ACCESS_TOKEN_MESSAGES.expiryInvalid,
  }),
});
export type CreateAccessTokenInput = z.infer<typeof createAccessTokenBodySchema>;

/** A token as its holder and the study's owner see it: never the secret. */
export const accessTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the secret (`wrp_pat_` and 6 more), to recognise it. */
  prefix: z.string(),
  ownerId: z.string(),
  ownerName: z.string(),
  ownerEmail: z.string(),
  /** Whether the caller is the token's owner (the study's owner also sees the others'). */
  mine: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Updated at most once a minute (and whenever the address changes). */
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  state: z.enum(ACCESS_TOKEN_STATES),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

export const accessTokenListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const accessTokenParamsSchema = z.object({ id: z.string().max(100), tokenId: z.uuid() });

export const createAccessTokenResponseSchema = successSchema({
  token: accessTokenSchema,
  /** The secret: shown this once, never again. */
  secret: z.string(),
});
export const accessTokenListResponseSchema = successSchema({
  tokens: z.array(accessTokenSchema),
  totalCount: z.number().int(),
  /** True for the study's owner: the list holds every member's tokens, not only the caller's. */
  everyone: z.boolean(),
});
export const revokeAccessTokenResponseSchema = successSchema({ token: accessTokenSchema });
