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
import { RATE_LIMITS, SUBJECT_LIMITS } from '../../http/rate-limits.js';
import { parseOrFail } from '../../http/validate.js';
import { bySession, byStudyAndEmail, perSubject } from './participant-rate-limit.js';
import {
  bySessionHolder,
  participantSessionToken,
  requireParticipantSession,
  sessionHolder,
} from './participant-session.js';

/**
 * Public participant calls (how the pages chain them: see the contracts' operations/enrolment.ts).
 * Each is validated by its contract and limited per client address (route config) and per
 * (study code, e-mail) (preHandler); none logs personal data.
 */
export const enrolmentRoutes: FastifyPluginAsync = async (app) => {
  const enrolment = app.services.enrolment;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  route(app, enrolmentApi.enrollDirect, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.enrollDirect, byStudyAndEmail),
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
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.checkPending, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.checkPending(request.body)),
    }),
  });

  route(app, enrolmentApi.enroll, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.enroll, byStudyAndEmail),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.enroll(request.body, participantSessionToken(request), ctx(request))),
    }),
  });

  route(app, enrolmentApi.updateInfo, {
    config: RATE_LIMITS.participantAddress,
    // Session and limits before the handler reads a single part: no session, no upload parsed.
    preHandler: [
      requireParticipantSession(app),
      perSubject(app, SUBJECT_LIMITS.updateInfo, bySessionHolder),
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
    config: RATE_LIMITS.participantAddress,
    preHandler: [
      requireParticipantSession(app),
      perSubject(app, SUBJECT_LIMITS.verifySecure, bySessionHolder),
    ],
    handler: async (request) => ({
      success: true as const,
      data: await enrolment.verifyParticipantSecure(request.body, sessionHolder(request)),
    }),
  });

  route(app, enrolmentApi.secureVerifyParticipant, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.secureVerify, (request) => {
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
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.secureSend, bySession),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureSendEmail(request.body, ctx(request))),
    }),
  });

  route(app, enrolmentApi.secureValidateSession, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureValidateSession(request.body)),
    }),
  });

  route(app, enrolmentApi.secureCompleteEnrollment, {
    config: RATE_LIMITS.participantAddress,
    preHandler: perSubject(app, SUBJECT_LIMITS.secureComplete, bySession),
    handler: async (request) => ({
      success: true as const,
      ...(await enrolment.secureCompleteEnrollment(request.body, ctx(request))),
    }),
  });
};
