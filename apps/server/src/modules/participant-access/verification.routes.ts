import { verificationApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import {
  byStudyAndEmail,
  byStudyAndParticipant,
  participantAddressLimit,
  perSubject,
} from './participant-rate-limit.js';
import { participantSessionToken } from './participant-session.js';

/**
 * E-mail and SMS codes (001 §4.3, §9): 6 digits, 10 minutes, a new one no sooner than 30 s,
 * 3 wrong attempts end a code. A verified code answers a participant session.
 */
export const verificationRoutes: FastifyPluginAsync = async (app) => {
  const verification = app.services.verification;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  route(app, verificationApi.sendEmailCode, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'send-email-code', 8, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.sendCode('email', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.verifyEmailCode, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'verify-email-code', 10, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.verifyCode('email', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.sendPhoneCode, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'send-phone-code', 8, byStudyAndParticipant),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.sendCode('phone', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.verifyPhoneCode, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'verify-phone-code', 10, byStudyAndParticipant),
    handler: async (request) => ({
      success: true as const,
      ...(await verification.verifyCode('phone', request.body, ctx(request))),
    }),
  });

  route(app, verificationApi.getVerificationStatus, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'verification-status', 20, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      data: await verification.status(
        { ...request.query, ...request.params },
        participantSessionToken(request),
      ),
    }),
  });
};
