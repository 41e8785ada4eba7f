import {
  ACCOUNT_FORM_MESSAGES,
  AUTH_HARDENING_MESSAGES,
  AUTH_SERVER_MESSAGES,
  authApi,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { toAuthUser, toProfile } from './auth.service.js';
import { currentUser, requireUser } from './authenticate.js';

export const authRoutes: FastifyPluginAsync = async (app) => {
  const { auth, master, google } = app.services;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  const signedIn = { preHandler: requireUser };

  route(app, authApi.login, {
    config: RATE_LIMITS.signIn,
    handler: async (request) => {
      const session = await auth.login(request.body, ctx(request));
      return { success: true as const, ...session, message: AUTH_SERVER_MESSAGES.signedIn };
    },
  });

  route(app, authApi.register, {
    config: RATE_LIMITS.register,
    handler: async (request, reply) => {
      const session = await auth.register(request.body, ctx(request));
      reply.status(201);
      return { success: true as const, ...session, message: AUTH_SERVER_MESSAGES.accountCreated };
    },
  });

  route(app, authApi.verifyToken, {
    config: RATE_LIMITS.verifyToken,
    handler: async (request) => {
      const found = await auth.authenticate(request.body.token);
      if (!found) throw new AppError(401, 'SESSION_EXPIRED', AUTH_SERVER_MESSAGES.sessionExpired);
      return { success: true as const, user: toAuthUser(found.user) };
    },
  });

  route(app, authApi.logout, {
    ...signedIn,
    handler: async (request) => {
      await auth.logout(request.sessionToken as string, ctx(request), currentUser(request).id);
      return { success: true as const };
    },
  });

  route(app, authApi.getProfile, {
    ...signedIn,
    handler: async (request) => {
      const user = currentUser(request);
      const application =
        user.role === 'master'
          ? undefined
          : await app.services.applications.liveApplicationOf(user.id);
      return { success: true as const, researcher: toProfile(user, application) };
    },
  });

  route(app, authApi.checkMasterStatus, {
    ...signedIn,
    handler: async (request) => ({
      success: true as const,
      isMasterAccount: currentUser(request).role === 'master',
    }),
  });

  route(app, authApi.forgotPassword, {
    config: RATE_LIMITS.forgotPassword,
    handler: async (request) => {
      await auth.requestPasswordReset(request.body.email, ctx(request));
      return { success: true as const, message: ACCOUNT_FORM_MESSAGES.passwordResetSent };
    },
  });

  route(app, authApi.checkResetToken, {
    config: RATE_LIMITS.checkResetToken,
    handler: async (request) => ({
      success: true as const,
      ...(await auth.checkResetToken(request.body.token)),
    }),
  });

  route(app, authApi.resetPassword, {
    config: RATE_LIMITS.resetPassword,
    handler: async (request) => {
      await auth.resetPassword(request.body.token, request.body.password, ctx(request));
      return { success: true as const, message: AUTH_SERVER_MESSAGES.passwordChanged };
    },
  });

  route(app, authApi.confirmEmail, {
    config: RATE_LIMITS.confirmEmail,
    handler: async (request) => {
      await auth.confirmEmail(request.body.token, ctx(request));
      return { success: true as const, message: AUTH_HARDENING_MESSAGES.confirmed };
    },
  });

  route(app, authApi.resendConfirmation, {
    ...signedIn,
    config: RATE_LIMITS.resendConfirmation,
    handler: async (request) => {
      const { alreadyConfirmed } = await auth.resendConfirmation(
        currentUser(request),
        ctx(request),
      );
      return {
        success: true as const,
        message: alreadyConfirmed
          ? AUTH_HARDENING_MESSAGES.alreadyConfirmed
          : AUTH_HARDENING_MESSAGES.confirmationSent,
      };
    },
  });

  route(app, authApi.googleStart, {
    config: RATE_LIMITS.googleSignIn,
    handler: async (request, reply) =>
      reply.redirect(await google.authorizationUrl(request.query.binding)),
  });

  route(app, authApi.googleComplete, {
    config: RATE_LIMITS.googleSignIn,
    handler: async (request) => {
      const session = await google.complete(request.body, ctx(request));
      return {
        success: true as const,
        ...session,
        message: AUTH_SERVER_MESSAGES.signedInWithGoogle,
      };
    },
  });

  route(app, authApi.setupStatus, {
    config: RATE_LIMITS.setupStatus,
    handler: async (request) => ({
      success: true as const,
      ...(await master.setupStatus(request.body.token)),
    }),
  });

  route(app, authApi.setupMaster, {
    config: RATE_LIMITS.setupMaster,
    handler: async (request, reply) => {
      const { token, ...input } = request.body;
      const session = await master.setupMaster(token, input, ctx(request));
      reply.status(201);
      return { success: true as const, ...session, message: AUTH_SERVER_MESSAGES.masterCreated };
    },
  });
};
