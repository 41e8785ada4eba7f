import {
  applicationsApi,
  formatSizeHuman,
  RESEARCHER_DOCUMENTS,
  researcherApplicationSchema,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { readMultipart, type UploadedFile } from '../../http/multipart.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { parseOrFail } from '../../http/validate.js';
import { attachmentDisposition } from '../../platform/object-store/types.js';
import { recordRead } from '../audit/index.js';
import { currentUser, requireMaster, requireUser } from '../auth/index.js';

export const applicationsRoutes: FastifyPluginAsync = async (app) => {
  const applications = app.services.applications;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  const signedIn = { preHandler: requireUser };
  const master = { preHandler: requireMaster };

  route(app, applicationsApi.getApplicationStatus, {
    ...signedIn,
    handler: async (request) => ({
      success: true as const,
      application: await applications.statusOf(currentUser(request).id),
    }),
  });

  route(app, applicationsApi.getPreviousApplication, {
    ...signedIn,
    handler: async (request) => ({
      success: true as const,
      application: await applications.previousOf(currentUser(request).id),
    }),
  });

  route(app, applicationsApi.submitApplication, {
    ...signedIn,
    config: RATE_LIMITS.submitApplication,
    handler: async (request, reply) => {
      let fields: unknown = request.body;
      let files: UploadedFile[] = [];
      if (request.isMultipart()) {
        const form = await readMultipart(request, {
          maxFileBytes: RESEARCHER_DOCUMENTS.maxFileBytes,
          maxFileLabel: formatSizeHuman(RESEARCHER_DOCUMENTS.maxFileBytes),
        });
        fields = form.fields;
        files = form.files;
      }
      const input = parseOrFail(researcherApplicationSchema, fields);
      const applicationId = await applications.submit(
        currentUser(request),
        input,
        files,
        ctx(request),
      );
      reply.status(201);
      return { success: true as const, applicationId };
    },
  });

  route(app, applicationsApi.listApplications, {
    ...master,
    handler: async (request) => {
      const page = await applications.list(request.query);
      await recordRead(app.platform.db, request, {
        action: 'applications.listed',
        details: { ...request.query, shown: page.applications.length },
      });
      return { success: true as const, ...page };
    },
  });

  route(app, applicationsApi.listResearchers, {
    ...master,
    handler: async (request) => {
      const page = await applications.listResearchers(request.query);
      await recordRead(app.platform.db, request, {
        action: 'researchers.listed',
        details: { ...request.query, shown: page.researchers.length },
      });
      return { success: true as const, ...page };
    },
  });

  route(app, applicationsApi.approveApplication, {
    ...master,
    handler: async (request) => {
      await applications.approve(
        request.params.id,
        request.body?.reviewNotes,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const };
    },
  });

  route(app, applicationsApi.rejectApplication, {
    ...master,
    handler: async (request) => {
      await applications.reject(
        request.params.id,
        request.body.reviewNotes,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const };
    },
  });

  route(app, applicationsApi.resetApplication, {
    ...master,
    handler: async (request) => {
      await applications.reset(request.params.id, currentUser(request), ctx(request));
      return { success: true as const };
    },
  });

  route(app, applicationsApi.downloadDocument, {
    ...master,
    handler: async (request, reply) => {
      const { document, body } = await applications.openDocument(
        request.params.id,
        request.params.documentId,
        currentUser(request),
        ctx(request),
      );
      return reply
        .header('Content-Type', document.contentType)
        .header('Content-Length', String(document.sizeBytes))
        .header('Content-Disposition', attachmentDisposition(document.fileName))
        .header('Cache-Control', 'private, no-store')
        .send(body);
    },
  });
};
