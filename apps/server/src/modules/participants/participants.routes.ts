import {
  CSV_MESSAGES,
  isCsvFile,
  participantsApi,
  ROSTER_CSV_MAX_BYTES,
  type RosterRow,
  rosterIntentSchema,
  STUDY_DETAIL_MESSAGES,
  studyCodeSchema,
} from '@research/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest, notFound, tooLarge } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { RATE_LIMITS } from '../../http/rate-limits.js';
import { attachmentDisposition } from '../../platform/object-store/types.js';
import { recordRead } from '../audit/index.js';
import { currentUser } from '../auth/index.js';
import { requireApprovedResearcher, requireStudyMember, studyAccessOf } from '../studies/index.js';
import type { ParticipantAccess } from './participants.service.js';
import { parseRosterCsv } from './roster-csv.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireParticipantAccess`: the participant and the caller's study access. */
    participantAccess: ParticipantAccess | null;
  }
}

/** preHandler for `/api/participants/:participantId/…`: participant → study → membership, once. */
async function requireParticipantAccess(request: FastifyRequest, reply: FastifyReply) {
  await requireApprovedResearcher(request, reply);
  const { participantId } = request.params as { participantId: string };
  request.participantAccess = await request.server.services.participants.participantAccess(
    participantId,
    currentUser(request).id,
  );
}

function participantAccessOf(request: FastifyRequest): ParticipantAccess {
  if (!request.participantAccess)
    throw notFound(STUDY_DETAIL_MESSAGES.participantNotFound, 'PARTICIPANT_NOT_FOUND');
  return request.participantAccess;
}

/** Reads the roster form: one `csvFile` (under 5 MB, checked while streaming) and fields. */
async function readRosterForm(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; data: Buffer } | null = null;
  try {
    for await (const part of request.parts({
      limits: { files: 1, fileSize: ROSTER_CSV_MAX_BYTES - 1, fields: 10, fieldSize: 1024 },
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'csvFile')
          file = { name: part.filename ?? '', type: part.mimetype, data };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(CSV_MESSAGES.tooLarge, 'FILE_TOO_LARGE');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw tooLarge(STUDY_DETAIL_MESSAGES.formTooManyParts, 'TOO_LARGE');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw badRequest(CSV_MESSAGES.readFailed, 'CSV_READ_FAILED');
    throw error;
  }
  return { fields, file };
}

/** What a list read records: which page and how many rows it showed (not the search text). */
const pageRead = (query: { offset?: number; limit?: number; search?: string }, shown: number) => ({
  offset: query.offset ?? 0,
  shown,
  searched: Boolean(query.search),
});

export const participantsRoutes: FastifyPluginAsync = async (app) => {
  const participants = app.services.participants;
  const db = app.platform.db;
  const ctx = (request: { ip: string }) => ({ ip: request.ip });
  const member = { preHandler: requireStudyMember };
  const byParticipant = { preHandler: requireParticipantAccess };
  app.decorateRequest('participantAccess', null);

  route(app, participantsApi.listParticipants, {
    ...member,
    handler: async (request) => {
      const study = studyAccessOf(request).study;
      const page = await participants.list(studyAccessOf(request), request.query);
      await recordRead(db, request, {
        studyId: study.id,
        action: 'participants.listed',
        targetType: 'study',
        targetId: study.id,
        details: pageRead(request.query, page.participants.length),
      });
      return { success: true as const, ...page };
    },
  });

  route(app, participantsApi.getParticipantInfo, {
    ...byParticipant,
    handler: async (request) => {
      const target = participantAccessOf(request);
      const participant = await participants.details(target);
      await recordRead(db, request, {
        studyId: target.access.study.id,
        action: 'participant.viewed',
        targetType: 'participant',
        targetId: target.participant.id,
      });
      return { success: true as const, participant };
    },
  });

  route(app, participantsApi.downloadParticipantDocument, {
    ...byParticipant,
    handler: async (request, reply) => {
      const { document, body } = await participants.openDocument(
        participantAccessOf(request),
        request.params.documentId,
        currentUser(request),
        ctx(request),
      );
      return reply
        .header('Content-Type', document.mimeType)
        .header('Content-Length', String(document.sizeBytes))
        .header('Content-Disposition', attachmentDisposition(document.name))
        .header('Cache-Control', 'private, no-store')
        .send(body);
    },
  });

  route(app, participantsApi.updateParticipant, {
    ...byParticipant,
    handler: async (request) => ({
      success: true as const,
      participant: await participants.update(
        participantAccessOf(request),
        request.body,
        currentUser(request),
        ctx(request),
      ),
      message: STUDY_DETAIL_MESSAGES.participantUpdated,
    }),
  });

  route(app, participantsApi.deleteParticipant, {
    ...byParticipant,
    handler: async (request) => {
      await participants.remove(participantAccessOf(request), currentUser(request), ctx(request));
      return { success: true as const, message: STUDY_DETAIL_MESSAGES.participantDeleted };
    },
  });

  route(app, participantsApi.listPendingParticipants, {
    ...member,
    handler: async (request) => {
      const study = studyAccessOf(request).study;
      const page = await participants.listPending(studyAccessOf(request), request.query);
      await recordRead(db, request, {
        studyId: study.id,
        action: 'pending_participants.listed',
        targetType: 'study',
        targetId: study.id,
        details: pageRead(request.query, page.pendingParticipants.length),
      });
      return { success: true as const, ...page };
    },
  });

  route(app, participantsApi.addPendingParticipants, {
    ...member,
    config: RATE_LIMITS.addPendingParticipants,
    bodyLimit: 8 * 1024 * 1024,
    handler: async (request, reply) => {
      const result = await participants.addRoster(
        studyAccessOf(request),
        request.body.participants as RosterRow[],
        currentUser(request),
        ctx(request),
        { source: 'json' },
      );
      reply.status(201);
      return { success: true as const, ...result };
    },
  });

  route(app, participantsApi.updatePendingParticipant, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      pendingParticipant: await participants.updatePending(
        studyAccessOf(request),
        request.params.pendingId,
        request.body,
        currentUser(request),
        ctx(request),
      ),
      message: STUDY_DETAIL_MESSAGES.participantUpdated,
    }),
  });

  route(app, participantsApi.deletePendingParticipant, {
    ...member,
    handler: async (request) => {
      await participants.removePending(
        studyAccessOf(request),
        request.params.pendingId,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const, message: STUDY_DETAIL_MESSAGES.pendingParticipantRemoved };
    },
  });

  route(app, participantsApi.uploadRoster, {
    ...member,
    config: RATE_LIMITS.uploadRoster,
    handler: async (request, reply) => {
      const access = studyAccessOf(request);
      if (!request.isMultipart()) throw badRequest(CSV_MESSAGES.readFailed, 'CSV_READ_FAILED');
      const { fields, file } = await readRosterForm(request);
      if (!file) throw badRequest(CSV_MESSAGES.readFailed, 'CSV_FILE_MISSING');
      if (!isCsvFile(file)) throw new AppError(415, 'NOT_CSV', CSV_MESSAGES.notCsv);
      if (fields.studyCode !== undefined) {
        const code = studyCodeSchema.safeParse(fields.studyCode);
        if (!code.success || code.data !== access.study.studyCode)
          throw badRequest(STUDY_DETAIL_MESSAGES.studyCodeMismatch, 'STUDY_CODE_MISMATCH');
      }
      const rows = parseRosterCsv(file.data);
      const intent = rosterIntentSchema.safeParse(fields.intent);
      if (!intent.success)
        throw badRequest(STUDY_DETAIL_MESSAGES.unknownRosterIntent, 'VALIDATION_ERROR');
      const result = await participants.addRoster(
        access,
        rows,
        currentUser(request),
        ctx(request),
        { dryRun: fields.dryRun === 'true', intent: intent.data, source: 'csv' },
      );
      reply.status(result.dryRun ? 200 : 201);
      return { success: true as const, ...result };
    },
  });

  route(app, participantsApi.listMembers, {
    ...member,
    handler: async (request) => {
      const study = studyAccessOf(request).study;
      const members = await participants.members(studyAccessOf(request));
      await recordRead(db, request, {
        studyId: study.id,
        action: 'study.members_listed',
        targetType: 'study',
        targetId: study.id,
        details: { shown: members.length },
      });
      return { success: true as const, members };
    },
  });

  route(app, participantsApi.removeMember, {
    ...member,
    handler: async (request) => {
      await participants.removeMember(
        studyAccessOf(request),
        request.params.userId,
        currentUser(request),
        ctx(request),
      );
      return { success: true as const, message: STUDY_DETAIL_MESSAGES.memberRemoved };
    },
  });

  route(app, participantsApi.getStudyStats, {
    ...member,
    handler: async (request) => ({
      success: true as const,
      stats: await participants.stats(studyAccessOf(request)),
    }),
  });
};
