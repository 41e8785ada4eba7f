import {
  ENROLMENT_SERVER_MESSAGES,
  enrolmentApi,
  PARTICIPANT_DOCUMENT_LIMITS,
  updateInfoFieldsSchema,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { readMultipart } from '../../http/multipart.js';
import { route } from '../../http/operation-route.js';
import { parseOrFail } from '../../http/validate.js';
import {
  bySession,
  byStudyAndEmail,
  participantAddressLimit,
  perSubject,
} from './participant-rate-limit.js';
import {
  bySessionHolder,
  participantSessionToken,
  requireParticipantSession,
  sessionHolder,
} from './participant-session.js';

/**
 * Public participant calls of 001 §7 (how the pages chain them: see operations/enrolment.ts).
 * Each is validated by its contract and limited per client address (route config) and per
 * (study code, e-mail) (preHandler); none logs personal data.
 */
export const enrolmentRoutes: FastifyPluginAsync = async (app) => {
  const enrolment = app.services.enrolment;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  route(app, enrolmentApi.enrollDirect, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'enroll-direct', 10, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.enrollDirect(
        request.body,
        participantSessionToken(request),
        ctx(request),
      )),
    }),
  });

  route(app, enrolmentApi.checkPending, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'check-pending', 10, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.checkPending(request.body)),
    }),
  });

  route(app, enrolmentApi.enroll, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'enroll', 10, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.enroll(request.body, participantSessionToken(request), ctx(request))),
    }),
  });

  route(app, enrolmentApi.updateInfo, {
    config: participantAddressLimit,
    // Session and limits before the handler reads a single part: no session, no upload parsed.
    preHandler: [
      requireParticipantSession(app),
      perSubject(app, 'update-info', 5, bySessionHolder),
    ],
    handler: async (request) => {
      if (!request.isMultipart())
        throw new AppError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          ENROLMENT_SERVER_MESSAGES.multipartRequired,
        );
      const form = await readMultipart(request, {
        maxFileBytes: PARTICIPANT_DOCUMENT_LIMITS.maxFileBytes,
        maxFileLabel: '10 MB',
      });
      const fields = parseOrFail(updateInfoFieldsSchema, form.fields);
      return {
        success: true as const,
        ...(await enrolment.updateInfo(
          fields,
          form.files,
          participantSessionToken(request),
          ctx(request),
        )),
      };
    },
  });

  route(app, enrolmentApi.verifySecure, {
    config: participantAddressLimit,
    preHandler: [
      requireParticipantSession(app),
      perSubject(app, 'verify-secure', 10, bySessionHolder),
    ],
    handler: async (request) => ({
      success: true as const,
      data: await enrolment.verifyParticipantSecure(request.body, sessionHolder(request)),
    }),
  });

  route(app, enrolmentApi.secureVerifyParticipant, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'secure-verify', 10, (request) => {
      const body = request.body as { studyCode?: string; personalInfo?: { email?: string } };
      return body.studyCode && body.personalInfo?.email
        ? `${body.studyCode}|${body.personalInfo.email}`
        : undefined;
    }),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureVerifyParticipant(request.body)),
    }),
  });

  route(app, enrolmentApi.secureSendEmail, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'secure-send', 5, bySession),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureSendEmail(request.body, ctx(request))),
    }),
  });

  route(app, enrolmentApi.secureValidateSession, {
    config: participantAddressLimit,
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureValidateSession(request.body)),
    }),
  });

  route(app, enrolmentApi.secureCompleteEnrollment, {
    config: participantAddressLimit,
    preHandler: perSubject(app, 'secure-complete', 5, bySession),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureCompleteEnrollment(request.body, ctx(request))),
    }),
  });
};
