/**
 * Accounts and sessions: sign-in, sign-up, Google sign-in, session checks, password reset, e-mail
 * confirmation, the master set-up link and the operator's loopback route.
 */

import {
  authResponseSchema,
  checkResetTokenRequestSchema,
  checkResetTokenResponseSchema,
  confirmEmailRequestSchema,
  createMasterRequestSchema,
  createMasterResponseSchema,
  forgotPasswordRequestSchema,
  googleCompleteRequestSchema,
  googleStartQuerySchema,
  loginRequestSchema,
  masterStatusResponseSchema,
  messageResponseSchema,
  profileResponseSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  setupMasterRequestSchema,
  setupStatusRequestSchema,
  setupStatusResponseSchema,
  verifyTokenRequestSchema,
  verifyTokenResponseSchema,
} from '../schemas/auth.js';
import { successOnlySchema } from '../schemas/errors.js';
import { defineOperation } from './operation.js';

const tags = ['auth'] as const;

export const login = defineOperation({
  method: 'POST',
  path: '/api/auth/login',
  summary: 'Sign in with e-mail and password',
  tags,
  auth: 'public',
  body: loginRequestSchema,
  response: authResponseSchema,
  errors: { 401: ['INVALID_CREDENTIALS'], 429: ['TOO_MANY_ATTEMPTS'] },
});

export const register = defineOperation({
  method: 'POST',
  path: '/api/auth/register',
  summary: 'Create a researcher account',
  tags,
  auth: 'public',
  body: registerRequestSchema,
  status: 201,
  response: authResponseSchema,
  errors: { 409: ['EMAIL_IN_USE'] },
});

export const verifyToken = defineOperation({
  method: 'POST',
  path: '/api/auth/verify-token',
  summary: 'Check a stored session token and return its user',
  tags,
  auth: 'public',
  body: verifyTokenRequestSchema,
  response: verifyTokenResponseSchema,
  errors: { 401: ['SESSION_EXPIRED'] },
});

export const logout = defineOperation({
  method: 'POST',
  path: '/api/auth/logout',
  summary: 'End this session',
  tags,
  auth: 'bearer',
  response: successOnlySchema,
  errors: {},
});

export const getProfile = defineOperation({
  method: 'GET',
  path: '/api/auth/profile',
  summary: 'The signed-in user’s profile',
  tags,
  auth: 'bearer',
  response: profileResponseSchema,
  errors: {},
});

export const checkMasterStatus = defineOperation({
  method: 'GET',
  path: '/api/admin/check-master-status',
  summary: 'Whether the signed-in user is the master account',
  tags,
  auth: 'bearer',
  response: masterStatusResponseSchema,
  errors: {},
});

export const forgotPassword = defineOperation({
  method: 'POST',
  path: '/api/auth/forgot-password',
  summary:
    'E-mail a single-use password reset link (same answer whether or not the account exists)',
  tags,
  auth: 'public',
  body: forgotPasswordRequestSchema,
  response: messageResponseSchema,
  errors: {},
});

export const checkResetToken = defineOperation({
  method: 'POST',
  path: '/api/auth/check-reset-token',
  summary: 'Whether a reset or set-password link can still be used',
  tags,
  auth: 'public',
  body: checkResetTokenRequestSchema,
  response: checkResetTokenResponseSchema,
  errors: { 400: ['INVALID_RESET_TOKEN'] },
});

export const resetPassword = defineOperation({
  method: 'POST',
  path: '/api/auth/reset-password',
  summary: 'Set a new password from a reset link; ends every session of the account',
  tags,
  auth: 'public',
  body: resetPasswordRequestSchema,
  response: messageResponseSchema,
  errors: { 400: ['INVALID_RESET_TOKEN'] },
});

export const confirmEmail = defineOperation({
  method: 'POST',
  path: '/api/auth/confirm-email',
  summary: 'Confirm the account’s e-mail address with the single-use link mailed at sign-up',
  tags,
  auth: 'public',
  body: confirmEmailRequestSchema,
  response: messageResponseSchema,
  errors: { 400: ['INVALID_CONFIRMATION_TOKEN'] },
});

export const resendConfirmation = defineOperation({
  method: 'POST',
  path: '/api/auth/resend-confirmation',
  summary: 'E-mail a fresh confirmation link to the signed-in account',
  tags,
  auth: 'bearer',
  response: messageResponseSchema,
  errors: { 429: ['TOO_MANY_ATTEMPTS'] },
});

export const googleStart = defineOperation({
  method: 'GET',
  path: '/api/auth/google/start',
  summary: 'Start Google sign-in (opened in the sign-in popup; redirects to Google)',
  tags,
  auth: 'public',
  query: googleStartQuerySchema,
  response: 'raw',
  rawResponse: { status: 302, description: 'Redirects to Google’s consent screen' },
  errors: { 503: ['GOOGLE_UNAVAILABLE'] },
});

export const googleComplete = defineOperation({
  method: 'POST',
  path: '/api/auth/google/complete',
  summary: 'Finish Google sign-in with the code and state the popup relayed',
  tags,
  auth: 'public',
  body: googleCompleteRequestSchema,
  response: authResponseSchema,
  // 400: the attempt expired or belongs to another tab; 401: Google's answer did not verify;
  // 403: the Google account has no verified address.
  errors: {
    400: ['GOOGLE_SIGN_IN_FAILED'],
    401: ['GOOGLE_SIGN_IN_FAILED'],
    403: ['GOOGLE_SIGN_IN_FAILED'],
  },
});

export const setupStatus = defineOperation({
  method: 'POST',
  path: '/api/setup/status',
  summary: 'Whether a master set-up link can be used',
  tags,
  auth: 'public',
  body: setupStatusRequestSchema,
  response: setupStatusResponseSchema,
  errors: {},
});

export const setupMaster = defineOperation({
  method: 'POST',
  path: '/api/setup/master',
  summary: 'Create the master account from the set-up link printed at start',
  tags,
  auth: 'public',
  body: setupMasterRequestSchema,
  status: 201,
  response: authResponseSchema,
  errors: { 400: ['INVALID_SETUP_TOKEN'], 409: ['MASTER_EXISTS'] },
});

/**
 * `npm run admin -- create-master` while the server holds the embedded database: loopback only,
 * with the key the server wrote to its data folder (x-admin-key); not in the API reference.
 */
export const localCreateMaster = defineOperation({
  method: 'POST',
  path: '/api/local-admin/create-master',
  summary: 'Create or promote the master account (admin CLI, loopback only)',
  tags,
  auth: 'public',
  hidden: true,
  body: createMasterRequestSchema,
  response: createMasterResponseSchema,
  errors: { 403: ['FORBIDDEN'] },
});
