import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { currentUser, requireUser } from '../auth/authenticate.js';
import type { StudyAccess } from './studies.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireStudyMember`: the study and the caller's role in it. */
    studyAccess: StudyAccess | null;
  }
}

export const NOT_APPROVED_MESSAGE = 'Only approved researchers can work with studies.';

/** preHandler: signed in as an approved researcher (401 signed out, 403 anyone else). */
export async function requireApprovedResearcher(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (currentUser(request).role !== 'researcher' || request.applicationStatus !== 'approved') {
    throw new AppError(403, 'NOT_APPROVED', NOT_APPROVED_MESSAGE);
  }
}

/**
 * preHandler for routes under a study id (`:id` or `:studyId`): the membership is resolved
 * once — 404 for an unknown or deleted study, 403 for a non-member.
 */
export async function requireStudyMember(request: FastifyRequest, reply: FastifyReply) {
  await requireApprovedResearcher(request, reply);
  const params = request.params as { id?: string; studyId?: string };
  const studyId = params.studyId ?? params.id ?? '';
  request.studyAccess = await request.server.services.studies.access(
    studyId,
    currentUser(request).id,
  );
}

export function studyAccessOf(request: FastifyRequest): StudyAccess {
  if (!request.studyAccess)
    throw new AppError(403, 'NOT_A_MEMBER', 'You are not a member of this study.');
  return request.studyAccess;
}
