/**
 * Accounts and sessions: sign-in, sign-up, token verification, profile,
 * password reset, Google sign-in and the master set-up.
 */

import { z } from 'zod';
import { ACCOUNT_FORM_MESSAGES } from '../texts/auth.js';
import {
  emailSchema,
  nameSchema,
  passwordSchema,
  researcherStatusSchema,
  roleSchema,
  textSchema,
} from './common.js';
import { component } from './component.js';
import { successSchema } from './errors.js';

/** Long enough for any passphrase, short enough that hashing cannot be used to tie up the server. */
const PASSWORD_MAX_LENGTH = 256;
const passwordTooLong = `Password is too long (max ${PASSWORD_MAX_LENGTH} characters)`;

/** A new password: at least 6 characters (the product's minimum; see docs/product.md). */
const newPasswordSchema = passwordSchema.max(PASSWORD_MAX_LENGTH, passwordTooLong);

/** Opaque tokens (session, reset, set-up): base64url, bounded. */
const opaqueTokenSchema = textSchema.trim().min(16, 'Invalid token').max(200, 'Invalid token');

/** The signed-in user as the browser holds it (`auth_user`). `uid` mirrors `id` for old readers. */
const authUserSchema = component(
  'AuthUser',
  z.object({
    id: z.string(),
    uid: z.string(),
    email: z.string(),
    displayName: z.string(),
    photoURL: z.string().nullable(),
    role: roleSchema,
  }),
);
export type AuthUser = z.infer<typeof authUserSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: textSchema
    .min(1, ACCOUNT_FORM_MESSAGES.fillAllFields)
    .max(PASSWORD_MAX_LENGTH, passwordTooLong),
});

export const registerRequestSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  displayName: nameSchema,
});

/** login, register, Google sign-in and master set-up all answer with a session. */
export const authResponseSchema = successSchema({
  token: z.string(),
  user: authUserSchema,
  message: z.string(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const verifyTokenRequestSchema = z.object({ token: textSchema.min(1).max(200) });
export const verifyTokenResponseSchema = successSchema({ user: authUserSchema });

/** A researcher's profile (`researcher` in the response of GET /api/auth/profile). */
const userProfileSchema = component(
  'UserProfile',
  z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: roleSchema,
    status: researcherStatusSchema,
    institution: z.string().nullable(),
    department: z.string().nullable(),
    position: z.string().nullable(),
    approvedAt: z.string().nullable(),
    isMasterAccount: z.boolean(),
    /** Whether the address was proven (confirmation link, Google, reset link); applications need it. */
    emailVerified: z.boolean(),
  }),
);
export type UserProfile = z.infer<typeof userProfileSchema>;
export const profileResponseSchema = successSchema({ researcher: userProfileSchema });

export const masterStatusResponseSchema = successSchema({ isMasterAccount: z.boolean() });

export const messageResponseSchema = successSchema({ message: z.string() });

export const forgotPasswordRequestSchema = z.object({ email: emailSchema });

export const resetPasswordRequestSchema = z.object({
  token: opaqueTokenSchema,
  password: newPasswordSchema,
});

/** Lets the reset / set-password page say at once when a link is unusable. */
export const checkResetTokenRequestSchema = z.object({ token: opaqueTokenSchema });
export const checkResetTokenResponseSchema = successSchema({
  purpose: z.enum(['reset_password', 'set_password']),
  email: z.string(),
});

/** Google sign-in: the opener finishes the flow with what the popup relayed to it. */
export const googleStartQuerySchema = z.object({
  binding: textSchema.regex(/^[A-Za-z0-9_-]{32,128}$/, 'Invalid sign-in request'),
});
export const googleCompleteRequestSchema = z.object({
  code: textSchema.min(1).max(2048),
  state: textSchema.min(1).max(200),
  binding: textSchema.regex(/^[A-Za-z0-9_-]{32,128}$/, 'Invalid sign-in request'),
});

/** The first master account, created from the link printed at start. */
export const setupStatusRequestSchema = z.object({ token: opaqueTokenSchema });
export const setupStatusResponseSchema = successSchema({
  valid: z.boolean(),
  masterExists: z.boolean(),
});
export const setupMasterRequestSchema = z.object({
  token: opaqueTokenSchema,
  displayName: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});

/** E-mail confirmation: the link mailed at sign-up, and a fresh one on request. */
export const confirmEmailRequestSchema = z.object({ token: opaqueTokenSchema });

/**
 * The operator's `npm run admin -- create-master`: the address, and optionally a password and a
 * name; without a password the answer carries a single-use link to choose one.
 */
export const createMasterRequestSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema.optional(),
  displayName: nameSchema.optional(),
});
export const createMasterResponseSchema = successSchema({
  email: z.string(),
  created: z.boolean(),
  setPasswordUrl: z.string().optional(),
});
