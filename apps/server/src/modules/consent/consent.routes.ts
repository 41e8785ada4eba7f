import {
  CONSENT_LIMITS,
  CONSENT_MESSAGES,
  consentApi,
  consentPdfFieldsSchema,
} from '@research/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { readMultipart } from '../../http/multipart.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { parseOrFail } from '../../http/validate.js';
import { attachmentDisposition } from '../../platform/object-store/types.js';
import { recordAudit, recordRead } from '../audit/index.js';
import { currentUser } from '../auth/index.js';
import { participantSessionToken } from '../participant-access/index.js';
import { requireStudyMember, studyAccessOf } from '../studies/index.js';

const sendPdf = (reply: FastifyReply, file: { name: string; bytes: Buffer }) =>
  reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Length', String(file.bytes.length))
    .header('Content-Disposition', attachmentDisposition(file.name))
    .header('Cache-Control', 'private, no-store')
    .send(file.bytes);

/** The owner's and members' consent calls, the participant's, and the e-mailed copy link. */
export const consentRoutes: FastifyPluginAsync = async (app) => {
  const consent = app.services.consent;
  const member = { preHandler: requireStudyMember };
  const ctx = (request: FastifyRequest) => ({ ip: request.ip });
  /** The verified participant session's holder (401/403 otherwise). */
  const holderOf = (request: FastifyRequest) =>
    app.services.enrolment.sessionHolder(participantSessionToken(request));

  route(app, consentApi.getConsentOverview, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      ...(await consent.overview(studyAccessOf(request))),
    }),
  });

  route(app, consentApi.saveConsentDraft, {
    ...member,
    config: RATE_LIMITS.consentWrite,
    handler: async (request) => ({
      success: true as const,
      draft: await consent.saveDraft(
        studyAccessOf(request),
        currentUser(request).id,
        request.body,
        ctx(request),
      ),
      message: CONSENT_MESSAGES.draftSaved,
    }),
  });

  route(app, consentApi.uploadConsentPdf, {
    ...member,
    config: RATE_LIMITS.consentWrite,
    handler: async (request) => {
      if (!request.isMultipart())
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', CONSENT_MESSAGES.pdfRequired);
      const form = await readMultipart(request, {
        maxFileBytes: CONSENT_LIMITS.pdfMaxBytes,
        maxFileLabel: '10 MB',
      });
      const fields = parseOrFail(consentPdfFieldsSchema, form.fields);
      return {
        success: true as const,
        draft: await consent.uploadPdf(
          studyAccessOf(request),
          currentUser(request).id,
          form.files[0],
          fields.statements,
          ctx(request),
        ),
        message: CONSENT_MESSAGES.draftSaved,
      };
    },
  });

  route(app, consentApi.publishConsent, {
    ...member,
    config: RATE_LIMITS.consentWrite,
    handler: async (request, reply) => {
      const version = await consent.publish(
        studyAccessOf(request),
        currentUser(request).id,
        request.body,
        ctx(request),
      );
      reply.status(201);
      return {
        success: true as const,
        version,
        message: CONSENT_MESSAGES.published(version.number ?? 0),
      };
    },
  });

  route(app, consentApi.downloadConsentVersionPdf, {
    ...member,
    handler: async (request, reply) =>
      sendPdf(reply, await consent.versionPdf(studyAccessOf(request), request.params.versionId)),
  });

  // Signatures name participants: each list and each record read is in the study's trail.
  route(app, consentApi.listConsentSignatures, {
    ...member,
    handler: async (request) => {
      const access = studyAccessOf(request);
      const result = await consent.signatures(access);
      await recordRead(app.platform.db, request, {
        studyId: access.study.id,
        action: 'consent.signatures_listed',
        targetType: 'study',
        targetId: access.study.id,
      });
      return { success: true as const, ...result };
    },
  });

  route(app, consentApi.downloadConsentRecord, {
    ...member,
    handler: async (request, reply) => {
      const access = studyAccessOf(request);
      const file = await consent.record(access, request.params.signatureId);
      await recordAudit(app.platform.db, {
        actorId: currentUser(request).id,
        ip: request.ip,
        studyId: access.study.id,
        action: 'consent.record_downloaded',
        targetType: 'consent_signature',
        targetId: request.params.signatureId,
      });
      return sendPdf(reply, file);
    },
  });

  route(app, consentApi.recordWithdrawal, {
    ...member,
    config: RATE_LIMITS.consentWrite,
    handler: async (request) => {
      await consent.recordWithdrawal(
        studyAccessOf(request),
        currentUser(request).id,
        request.params.participantId,
        ctx(request),
      );
      return { success: true as const, message: CONSENT_MESSAGES.withdrawalRecorded };
    },
  });

  // ---- The participant ----

  route(app, consentApi.getParticipantConsent, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request) => ({
      success: true as const,
      ...(await consent.participantConsent(await holderOf(request))),
    }),
  });

  route(app, consentApi.downloadParticipantConsentPdf, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request, reply) =>
      sendPdf(reply, await consent.participantFormPdf(await holderOf(request))),
  });

  route(app, consentApi.signConsent, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request, reply) => {
      const signature = await consent.sign(await holderOf(request), request.body, ctx(request));
      reply.status(201);
      return { success: true as const, signature, message: CONSENT_MESSAGES.signed };
    },
  });

  route(app, consentApi.downloadOwnConsentCopy, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request, reply) =>
      sendPdf(reply, await consent.ownCopy(await holderOf(request))),
  });

  route(app, consentApi.downloadConsentCopyByLink, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request, reply) => sendPdf(reply, await consent.copyByLink(request.query)),
  });

  route(app, consentApi.withdrawFromStudy, {
    config: RATE_LIMITS.participantAddress,
    handler: async (request) => {
      await consent.withdrawSelf(await holderOf(request), ctx(request));
      return { success: true as const, message: CONSENT_MESSAGES.withdrawn };
    },
  });
};
