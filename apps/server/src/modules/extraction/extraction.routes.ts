import {
  DEFAULT_DATA_TYPE,
  defaultExtractionName,
  EXTRACTION_SERVER_MESSAGES,
  extractionApi,
  STUDY_DETAIL_MESSAGES,
} from '@research/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { recordRead } from '../audit/index.js';
import { currentUser } from '../auth/index.js';
import { studiesOfLiveParticipants } from '../participants/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from '../studies/index.js';
import type { ExtractionEngine, StartInput } from './engine.js';

declare module 'fastify' {
  interface FastifyInstance {
    extraction: ExtractionEngine;
  }
}

const notFound = () =>
  new AppError(404, 'PARTICIPANT_NOT_FOUND', STUDY_DETAIL_MESSAGES.participantNotFound);

/**
 * The study of the named participants, which the caller must be a member of (owner or
 * collaborator). A participant of a study the caller does not belong to answers like an unknown
 * one, so ids cannot be probed.
 */
async function studyOfParticipants(request: FastifyRequest, ids: string[]): Promise<string> {
  const rows = await studiesOfLiveParticipants(request.server.platform.db, ids);
  if (rows.length !== new Set(ids).size) throw notFound();
  const studyIds = new Set(rows.map((r) => r.studyId));
  if (studyIds.size !== 1) {
    throw new AppError(400, 'MIXED_STUDIES', EXTRACTION_SERVER_MESSAGES.participantsOfOneStudy);
  }
  const [studyId = ''] = studyIds;
  try {
    await request.server.services.studies.access(studyId, currentUser(request).id);
  } catch (error) {
    if (error instanceof AppError && (error.statusCode === 403 || error.statusCode === 404)) {
      throw notFound();
    }
    throw error;
  }
  return studyId;
}

async function startFor(request: FastifyRequest, input: Omit<StartInput, 'studyId' | 'actorId'>) {
  const studyId = await studyOfParticipants(request, input.participantIds);
  const started = await request.server.extraction.start({
    ...input,
    studyId,
    actorId: currentUser(request).id,
    ip: request.ip,
  });
  return { success: true as const, ...started };
}

const today = () => new Date().toISOString().slice(0, 10);

export const extractionRoutes: FastifyPluginAsync = async (app) => {
  const researcher = { preHandler: requireApprovedResearcher, config: RATE_LIMITS.extraction };
  const member = { preHandler: requireStudyMember };

  route(app, extractionApi.extractParticipantData, {
    ...researcher,
    handler: async (request) => {
      const body = request.body;
      const ids = body.participantIds ?? (body.participantId ? [body.participantId] : []);
      return startFor(request, {
        name: body.extractionName,
        dataTypes: [...new Set(body.dataTypes)],
        dateRange: body.dateRange,
        participantIds: [...new Set(ids)],
      });
    },
  });

  route(app, extractionApi.extractData, {
    ...researcher,
    handler: async (request) => {
      const body = request.body;
      const date = today();
      return startFor(request, {
        name: body.extractionName ?? defaultExtractionName(new Date(), 1),
        dataTypes: [...new Set(body.dataTypes ?? [DEFAULT_DATA_TYPE])],
        dateRange: body.dateRange ?? { startDate: date, endDate: date, mode: 'single' },
        participantIds: [body.participantId],
      });
    },
  });

  route(app, extractionApi.estimateExtraction, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      ...(await app.extraction.estimate({
        studyId: studyAccessOf(request).study.id,
        participantIds: request.body.participantIds,
        dataTypes: request.body.dataTypes,
        dateRange: request.body.dateRange,
      })),
    }),
  });

  route(app, extractionApi.listExtractionJobs, {
    ...member,
    handler: async (request) => {
      const studyId = studyAccessOf(request).study.id;
      const jobs = await app.extraction.listJobs(studyId);
      await recordRead(app.platform.db, request, {
        studyId,
        action: 'extraction.jobs_listed',
        targetType: 'study',
        targetId: studyId,
        details: { shown: jobs.length },
      });
      return { success: true as const, jobs };
    },
  });

  route(app, extractionApi.getExtractionJob, {
    ...member,
    handler: async (request) => {
      const studyId = studyAccessOf(request).study.id;
      const detail = await app.extraction.jobDetail(studyId, request.params.jobId);
      await recordRead(app.platform.db, request, {
        studyId,
        action: 'extraction.job_viewed',
        targetType: 'extraction_job',
        targetId: request.params.jobId,
      });
      return { success: true as const, ...detail };
    },
  });
};
