import {
  bucketUrlResponseSchema,
  createStudySchema,
  joinStudySchema,
  messageResponseSchema,
  notifyResearcherSchema,
  studyIdAltParamsSchema,
  studyIdParamsSchema,
  studyListQuerySchema,
  studyListResponseSchema,
  studyResponseSchema,
  successOnlySchema,
  updateStudySchema,
  verifyStudyCodeResponseSchema,
  verifyStudyCodeSchema,
} from '@research/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, perMinute } from '../../http/responses.js';
import { currentUser } from '../auth/authenticate.js';
import { bucketListingUrl } from '../storage/bucket-listing.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from './study-access.js';

const tags = ['studies'];
const security = [{ bearerAuth: [] }];

export const studiesRoutes: FastifyPluginAsyncZod<{ listingKey: Buffer }> = async (
  app,
  { listingKey },
) => {
  const studies = app.services.studies;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  const member = { preHandler: requireStudyMember };
  const researcher = { preHandler: requireApprovedResearcher };

  const lists = [
    {
      path: '/api/auth/researcher-studies',
      role: 'main',
      summary: 'Studies the signed-in researcher owns, newest first',
    },
    {
      path: '/api/auth/collaborative-studies',
      role: 'collab',
      summary: 'Studies the signed-in researcher collaborates on, newest first',
    },
    {
      path: '/api/studies',
      role: 'main',
      summary: 'Studies the signed-in researcher owns (as /api/auth/researcher-studies)',
    },
  ] as const;
  for (const list of lists) {
    app.get(
      list.path,
      {
        ...researcher,
        schema: {
          tags,
          security,
          summary: list.summary,
          querystring: studyListQuerySchema,
          response: { 200: studyListResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await studies.list(currentUser(request).id, list.role, request.query)),
      }),
    );
  }

  app.post(
    '/api/auth/create-study',
    {
      ...researcher,
      config: perMinute(20),
      schema: {
        tags,
        security,
        summary: 'Create a study; collaborators named by e-mail are invited',
        body: createStudySchema,
        response: { 201: studyResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const study = await studies.create(currentUser(request), request.body, ctx(request));
      return reply.status(201).send({
        success: true as const,
        study,
        message: `Study created. Its code is ${study.studyCode}.`,
      });
    },
  );

  app.get(
    '/api/studies/:id',
    {
      ...member,
      schema: {
        tags,
        security,
        summary: 'One study (members only; the password only for its owner)',
        params: studyIdParamsSchema,
        response: { 200: studyResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      study: await studies.get(studyAccessOf(request)),
    }),
  );

  for (const path of ['/api/auth/update-study/:id', '/api/studies/:id']) {
    app.put(
      path,
      {
        ...member,
        schema: {
          tags,
          security,
          summary:
            'Change name, description, duration or (with currentPassword) the password — owner only',
          params: studyIdParamsSchema,
          body: updateStudySchema,
          response: { 200: studyResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => ({
        success: true as const,
        study: await studies.update(
          studyAccessOf(request),
          currentUser(request),
          request.body,
          ctx(request),
        ),
      }),
    );
  }

  for (const path of ['/api/auth/delete-study/:id', '/api/studies/:id']) {
    app.delete(
      path,
      {
        ...member,
        schema: {
          tags,
          security,
          summary:
            'Delete a study (owner only; hidden at once, data kept for the retention period)',
          params: studyIdParamsSchema,
          response: { 200: successOnlySchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await studies.remove(studyAccessOf(request), currentUser(request), ctx(request));
        return { success: true as const };
      },
    );
  }

  app.post(
    '/api/auth/join-study',
    {
      ...researcher,
      config: perMinute(20),
      schema: {
        tags,
        security,
        summary: 'Join a study as collaborator with its code and password',
        body: joinStudySchema,
        response: { 200: studyResponseSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      study: await studies.join(currentUser(request), request.body, ctx(request)),
      message: 'You have successfully joined the study as a collaborator',
    }),
  );

  app.post(
    '/api/auth/verify-study-code',
    {
      config: perMinute(30),
      schema: {
        tags,
        summary: 'Public: look a study up by its code',
        body: verifyStudyCodeSchema,
        response: { 200: verifyStudyCodeResponseSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      study: await studies.lookup(request.body.studyCode),
    }),
  );

  app.post(
    '/api/auth/notify-researcher',
    {
      config: perMinute(5),
      schema: {
        tags,
        summary: 'Public: a participant sends a message to the study owner by e-mail',
        body: notifyResearcherSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      await studies.notifyResearcher(request.body, ctx(request));
      return { success: true as const, message: 'Your message was sent to the research team.' };
    },
  );

  app.get(
    '/api/studies/:studyId/bucket-signed-url',
    {
      ...member,
      schema: {
        tags,
        security,
        summary:
          'A signed, expiring link to the page listing the study bucket’s files (members only)',
        params: studyIdAltParamsSchema,
        response: { 200: bucketUrlResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const bucket = await studies.bucketUrl(
        studyAccessOf(request),
        currentUser(request),
        ctx(request),
      );
      return {
        success: true as const,
        signedUrl: bucketListingUrl(app.platform.config.publicUrl, listingKey, bucket),
        message: 'The link is valid for 15 minutes.',
      };
    },
  );
};
