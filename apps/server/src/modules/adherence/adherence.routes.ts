import { adherenceApi } from '@research/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/operation-route.js';
import { currentUser } from '../auth/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from '../studies/index.js';
import type { AdherenceService, ChartTarget } from './adherence.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    adherence: AdherenceService;
  }
}

/**
 * As every `/api/participants/:participantId` route: an approved researcher who is a member of
 * the participant's study; anyone else learns nothing (404), as the participants module answers.
 */
async function chartTarget(request: FastifyRequest): Promise<ChartTarget> {
  const { participantId } = request.params as { participantId: string };
  return request.server.services.participants.participantAccess(
    participantId,
    currentUser(request).id,
  );
}

export const adherenceRoutes: FastifyPluginAsync = async (app) => {
  route(app, adherenceApi.getAdherence, {
    preHandler: requireStudyMember,
    handler: async (request) => ({
      success: true as const,
      ...(await app.adherence.heatMap(studyAccessOf(request), request.query)),
    }),
  });

  route(app, adherenceApi.getParticipantCharts, {
    preHandler: requireApprovedResearcher,
    handler: async (request) => ({
      success: true as const,
      ...(await app.adherence.charts(await chartTarget(request), request.query)),
    }),
  });

  route(app, adherenceApi.getHeartRateDay, {
    preHandler: requireApprovedResearcher,
    handler: async (request) => ({
      success: true as const,
      ...(await app.adherence.heartRate(await chartTarget(request), request.query.date)),
    }),
  });
};
