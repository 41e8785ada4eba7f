import { exportsApi } from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { attachmentDisposition } from '../../platform/object-store/types.js';
import { currentUser } from '../auth/index.js';
import { requireStudyMember, studyAccessOf } from '../studies/index.js';

/** Exports of the study dataset: members of the study only. */
export const exportsRoutes: FastifyPluginAsync = async (app) => {
  const member = { preHandler: requireStudyMember };

  route(app, exportsApi.startExport, {
    ...member,
    config: RATE_LIMITS.startExport,
    handler: async (request, reply) => {
      const user = currentUser(request);
      const started = await app.exports.start({
        studyId: studyAccessOf(request).study.id,
        body: request.body,
        actor: { userId: user.id, label: user.displayName || user.email },
        ip: request.ip,
      });
      reply.status(201);
      return { success: true as const, export: started };
    },
  });

  route(app, exportsApi.listExports, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      exports: await app.exports.list(studyAccessOf(request).study.id),
    }),
  });

  route(app, exportsApi.getExport, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      ...(await app.exports.get(studyAccessOf(request).study.id, request.params.exportId)),
    }),
  });

  route(app, exportsApi.downloadExport, {
    ...member,
    config: RATE_LIMITS.downloadExport,
    handler: async (request, reply) => {
      const { stream, fileName } = await app.exports.archive(
        studyAccessOf(request).study.id,
        request.params.exportId,
        { userId: currentUser(request).id, ip: request.ip },
      );
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', attachmentDisposition(fileName))
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  });
};
