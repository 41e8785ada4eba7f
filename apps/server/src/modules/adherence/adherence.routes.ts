import { adherenceApi } from '@research/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/operation-route.js';
import { recordRead } from '../audit/index.js';
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
  // A kept heat map (the service answers the same object while nothing it shows changed) is
  // serialized once: at 500 participants × 90 days that is most of the call's time.
  const serialized = new WeakMap<object, string>();
  route(app, adherenceApi.getAdherence, {
    preHandler: requireStudyMember,
    handler: async (request, reply) => {
      const study = studyAccessOf(request).study;
      const body = await app.adherence.heatMap(studyAccessOf(request), request.query);
      await recordRead(app.platform.db, request, {
        studyId: study.id,
        action: 'adherence.viewed',
        targetType: 'study',
        targetId: study.id,
        details: { ...request.query },
      });
      let text = serialized.get(body);
      if (text === undefined) {
        // The route's own serializer (the contract's fields only, checked in tests).
        text = reply.serialize({ success: true as const, ...body }) as string;
        serialized.set(body, text);
      }
      // A string with a JSON type is sent as it is (Fastify does not serialize it again).
      return reply.type('application/json; charset=utf-8').send(text) as never;
    },
  });

  route(app, adherenceApi.getParticipantCharts, {
    preHandler: requireApprovedResearcher,
    handler: async (request) => {
      const target = await chartTarget(request);
      const body = await app.adherence.charts(target, request.query);
      await recordRead(app.platform.db, request, {
        studyId: target.access.study.id,
        action: 'participant.charts_viewed',
        targetType: 'participant',
        targetId: target.participant.id,
        details: { ...request.query },
      });
      return { success: true as const, ...body };
    },
  });

  route(app, adherenceApi.getHeartRateDay, {
    preHandler: requireApprovedResearcher,
    handler: async (request) => {
      const target = await chartTarget(request);
      const body = await app.adherence.heartRate(target, request.query.date);
      await recordRead(app.platform.db, request, {
        studyId: target.access.study.id,
        action: 'participant.heart_rate_viewed',
        targetType: 'participant',
        targetId: target.participant.id,
        details: { date: request.query.date },
      });
      return { success: true as const, ...body };
    },
  });
};
