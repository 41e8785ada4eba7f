import { verificationApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS, SUBJECT_LIMITS } from '../../http/rate-limits.js';
import { byStudyAndEmail, byStudyAndParticipant, perSubject } from './participant-rate-limit.js';
import { participantSessionToken } from './participant-session.js';

/**
 * E-mail and SMS codes: 6 digits, 10 minutes, a new one no sooner than 30 s,
 * 3 wrong attempts end a code. A verified code answers a participant session.
 */
export const verificationRoutes: FastifyPluginAsync = async (app) => {
  const verification = app.services.verification;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  route(app, verificationApi.sendEmailCode, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.sendEmailCode, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.sendCode('email', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.verifyEmailCode, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.verifyEmailCode, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.verifyCode('email', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.sendPhoneCode, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.sendPhoneCode, byStudyAndParticipant),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.sendCode('phone', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.verifyPhoneCode, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.verifyPhoneCode, byStudyAndParticipant),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.verifyCode('phone', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.getVerificationStatus, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.verificationStatus, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      data: await verification.status(
        { ...request.query, ...request.params },
        participantSessionToken(request),
      ),
    }),
  });
};
