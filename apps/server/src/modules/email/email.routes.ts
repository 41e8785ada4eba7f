import { emailApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { recordRead } from '../audit/index.js';
import { currentUser } from '../auth/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from '../studies/index.js';

/**
 * Mail from the study screen. Sends are answered at once: the mails wait in the outbound queue
 * (a relay that is down delays them; the history shows them queued, then sent).
 */
export const emailRoutes: FastifyPluginAsync = async (app) => {
  const email = app.services.email;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  // The study is named by code in the body; access is resolved in the service, once.
  const sender = { preHandler: requireApprovedResearcher, config: RATE_LIMITS.sendStudyEmail };
  const member = { preHandler: requireStudyMember };

  route(app, emailApi.sendInvitations, {
    ...sender,
    bodyLimit: 2 * 1024 * 1024,
    handler: async (request) => ({
      success: true as const,
      ...(await email.invite(request.body, currentUser(request), ctx(request))),
    }),
  });

  route(app, emailApi.sendCollaboratorInvitations, {
    ...sender,
    handler: async (request) => ({
      success: true as const,
      ...(await email.inviteCollaborators(request.body, currentUser(request), ctx(request))),
    }),
  });

  route(app, emailApi.sendContactEmail, {
    ...sender,
    bodyLimit: 2 * 1024 * 1024,
    handler: async (request) => ({
      success: true as const,
      ...(await email.contact(request.body, currentUser(request), ctx(request))),
    }),
  });

  route(app, emailApi.getEmailHistory, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      ...(await email.history(studyAccessOf(request), request.query)),
    }),
  });

  route(app, emailApi.getEmailDetails, {
    ...member,
    handler: async (request) => {
      const study = studyAccessOf(request).study;
      const details = await email.details(studyAccessOf(request), request.params.emailId);
      await recordRead(app.platform.db, request, {
        studyId: study.id,
        action: 'email.details_viewed',
        targetType: 'email',
        targetId: request.params.emailId,
      });
      return { success: true as const, email: details };
    },
  });
};
