import {
  applicationIdParamsSchema,
  applicationListQuerySchema,
  applicationListResponseSchema,
  applicationStatusResponseSchema,
  approveApplicationSchema,
  documentParamsSchema,
  RESEARCHER_DOCUMENTS,
  researcherApplicationSchema,
  researcherListQuerySchema,
  researcherListResponseSchema,
  reviewApplicationSchema,
  submitApplicationResponseSchema,
  successOnlySchema,
} from '@research/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readMultipart, type UploadedFile } from '../../http/multipart.js';
import { errorResponses, perMinute } from '../../http/responses.js';
import { parseOrFail } from '../../http/validate.js';
import { attachmentDisposition } from '../../platform/object-store/types.js';
import { currentUser, requireMaster, requireUser } from '../auth/authenticate.js';

const tags = ['applications'];
const security = [{ bearerAuth: [] }];

export const applicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const applications = app.services.applications;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/api/auth/application-status',
    {
      preHandler: requireUser,
      schema: {
        tags,
        security,
        summary: 'The signed-in user’s researcher application (null when there is none)',
        response: { 200: applicationStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({
      success: true as const,
      application: await applications.statusOf(currentUser(request).id),
    }),
  );

  app.post(
    '/api/admin/researcher-applications',
    {
      preHandler: requireUser,
      config: perMinute(10),
      schema: {
        tags,
        security,
        summary:
          'Submit a researcher application (JSON, or multipart/form-data with up to 5 documents of 10 MB: PDF, PNG, JPEG)',
        consumes: ['application/json', 'multipart/form-data'],
        response: {
          201: submitApplicationResponseSchema,
          ...errorResponses(400, 401, 409, 413, 415, 429),
        },
      },
    },
    async (request, reply) => {
      let fields: unknown = request.body;
      let files: UploadedFile[] = [];
      if (request.isMultipart()) {
        const form = await readMultipart(request, {
          maxFiles: RESEARCHER_DOCUMENTS.maxFiles,
          maxFileBytes: RESEARCHER_DOCUMENTS.maxFileBytes,
          maxFileLabel: '10 MB',
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
      return reply.status(201).send({ success: true as const, applicationId });
    },
  );

  app.get(
    '/api/admin/researcher-applications',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Applications by status (or by e-mail), newest first; `limit=1` for counts',
        querystring: applicationListQuerySchema,
        response: { 200: applicationListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ success: true as const, ...(await applications.list(request.query)) }),
  );

  app.get(
    '/api/admin/researchers',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Researchers (people with an application); status=approved for active researchers',
        querystring: researcherListQuerySchema,
        response: { 200: researcherListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await applications.listResearchers(request.query)),
    }),
  );

  app.post(
    '/api/admin/researcher-applications/:id/approve',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Approve a pending application (optional notes)',
        params: applicationIdParamsSchema,
        body: approveApplicationSchema.optional(),
        response: { 200: successOnlySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await applications.approve(
        request.params.id,
        request.body?.reviewNotes,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const };
    },
  );

  app.put(
    '/api/admin/researcher-applications/:id/review',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Reject a pending application; the reason is required',
        params: applicationIdParamsSchema,
        body: reviewApplicationSchema,
        response: { 200: successOnlySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await applications.reject(
        request.params.id,
        request.body.reviewNotes,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const };
    },
  );

  app.put(
    '/api/admin/researcher-applications/:id/reset',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Reset a rejected application so its owner can apply again',
        params: applicationIdParamsSchema,
        response: { 200: successOnlySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await applications.reset(request.params.id, currentUser(request), ctx(request));
      return { success: true as const };
    },
  );

  app.get(
    '/api/admin/researcher-applications/:id/documents/:documentId',
    {
      preHandler: requireMaster,
      schema: {
        tags,
        security,
        summary: 'Download a verification document',
        params: documentParamsSchema,
        response: {
          200: z.unknown().describe('The file, as an attachment'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
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
  );
};
