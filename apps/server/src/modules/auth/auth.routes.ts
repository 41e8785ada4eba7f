import {
  AUTH_MESSAGES,
  authResponseSchema,
  checkResetTokenRequestSchema,
  checkResetTokenResponseSchema,
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
  successOnlySchema,
  verifyTokenRequestSchema,
  verifyTokenResponseSchema,
} from '@research/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { errorResponses, perMinute } from '../../http/responses.js';
import { RESET_PASSWORD_SUCCESS, toAuthUser, toProfile } from './auth.service.js';
import { currentUser, requireUser, SESSION_EXPIRED_MESSAGE } from './authenticate.js';

const tags = ['auth'];
const bearer = [{ bearerAuth: [] }];

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, master, google } = app.services;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  app.post(
    '/api/auth/login',
    {
      config: perMinute(30),
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        body: loginRequestSchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const session = await auth.login(request.body, ctx(request));
      return { success: true as const, ...session, message: 'Signed in successfully' };
    },
  );

  app.post(
    '/api/auth/register',
    {
      config: perMinute(10),
      schema: {
        tags,
        summary: 'Create a researcher account',
        body: registerRequestSchema,
        response: { 201: authResponseSchema, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const session = await auth.register(request.body, ctx(request));
      return reply
        .status(201)
        .send({ success: true as const, ...session, message: 'Account created successfully' });
    },
  );

  app.post(
    '/api/auth/verify-token',
    {
      config: perMinute(120),
      schema: {
        tags,
        summary: 'Check a stored session token and return its user',
        body: verifyTokenRequestSchema,
        response: { 200: verifyTokenResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const found = await auth.authenticate(request.body.token);
      if (!found) throw new AppError(401, 'SESSION_EXPIRED', SESSION_EXPIRED_MESSAGE);
      return { success: true as const, user: toAuthUser(found.user) };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      preHandler: requireUser,
      schema: {
        tags,
        security: bearer,
        summary: 'End this session',
        response: { 200: successOnlySchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      await auth.logout(request.sessionToken as string, ctx(request), currentUser(request).id);
      return { success: true as const };
    },
  );

  app.get(
    '/api/auth/profile',
    {
      preHandler: requireUser,
      schema: {
        tags,
        security: bearer,
        summary: 'The signed-in user’s profile',
        response: { 200: profileResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const application =
        user.role === 'master'
          ? undefined
          : await app.services.applications.liveApplicationOf(user.id);
      return { success: true as const, researcher: toProfile(user, application) };
    },
  );

  app.get(
    '/api/admin/check-master-status',
    {
      preHandler: requireUser,
      schema: {
        tags,
        security: bearer,
        summary: 'Whether the signed-in user is the master account',
        response: { 200: masterStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({
      success: true as const,
      isMasterAccount: currentUser(request).role === 'master',
    }),
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: perMinute(5),
      schema: {
        tags,
        summary:
          'E-mail a single-use password reset link (same answer whether or not the account exists)',
        body: forgotPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await auth.requestPasswordReset(request.body.email, ctx(request));
      return { success: true as const, message: AUTH_MESSAGES.passwordResetSent };
    },
  );

  app.post(
    '/api/auth/check-reset-token',
    {
      config: perMinute(30),
      schema: {
        tags,
        summary: 'Whether a reset or set-password link can still be used',
        body: checkResetTokenRequestSchema,
        response: { 200: checkResetTokenResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await auth.checkResetToken(request.body.token)),
    }),
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: perMinute(10),
      schema: {
        tags,
        summary: 'Set a new password from a reset link; ends every session of the account',
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.password, ctx(request));
      return { success: true as const, message: RESET_PASSWORD_SUCCESS };
    },
  );

  app.get(
    '/api/auth/google/start',
    {
      config: perMinute(20),
      schema: {
        tags,
        summary: 'Start Google sign-in (opened in the sign-in popup; redirects to Google)',
        querystring: googleStartQuerySchema,
        response: { ...errorResponses(400, 503) },
      },
    },
    async (request, reply) => reply.redirect(await google.authorizationUrl(request.query.binding)),
  );

  app.post(
    '/api/auth/google/complete',
    {
      config: perMinute(20),
      schema: {
        tags,
        summary: 'Finish Google sign-in with the code and state the popup relayed',
        body: googleCompleteRequestSchema,
        response: { 200: authResponseSchema, ...errorResponses(400, 401, 403, 429, 503) },
      },
    },
    async (request) => {
      const session = await google.complete(request.body, ctx(request));
      return { success: true as const, ...session, message: 'Signed in with Google' };
    },
  );

  app.post(
    '/api/setup/status',
    {
      config: perMinute(20),
      schema: {
        tags,
        summary: 'Whether a master set-up link can be used',
        body: setupStatusRequestSchema,
        response: { 200: setupStatusResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await master.setupStatus(request.body.token)),
    }),
  );

  app.post(
    '/api/setup/master',
    {
      config: perMinute(10),
      schema: {
        tags,
        summary: 'Create the master account from the set-up link printed at start',
        body: setupMasterRequestSchema,
        response: { 201: authResponseSchema, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const { token, ...input } = request.body;
      const session = await master.setupMaster(token, input, ctx(request));
      return reply
        .status(201)
        .send({ success: true as const, ...session, message: 'Master account created' });
    },
  );
};
