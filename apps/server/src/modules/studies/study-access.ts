import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { currentUser, requireUser, signIn } from '../auth/index.js';
import { isStudyId, type StudyAccess, studyAccessFrom } from './studies.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireStudyMember`: the study and the caller's role in it. */
    studyAccess: StudyAccess | null;
  }
}

export const NOT_APPROVED_MESSAGE = 'Only approved researchers can work with studies.';

/** 403 unless the signed-in user is a researcher with an approved application. */
function assertApprovedResearcher(request: FastifyRequest) {
  if (currentUser(request).role !== 'researcher' || request.applicationStatus !== 'approved') {
    throw new AppError(403, 'NOT_APPROVED', NOT_APPROVED_MESSAGE);
  }
}

/** preHandler: signed in as an approved researcher (401 signed out, 403 anyone else). */
export async function requireApprovedResearcher(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  assertApprovedResearcher(request);
}

/**
 * preHandler for routes under a study id (`:id` or `:studyId`): the checks of
 * `requireApprovedResearcher`, then 404 for an unknown or deleted study and 403 for a
 * non-member, with session, application, study and role read in one statement.
 */
export async function requireStudyMember(request: FastifyRequest, _reply: FastifyReply) {
  const params = request.params as { id?: string; studyId?: string };
  const studyId = params.studyId ?? params.id ?? '';
  const found = await signIn(request, (token) =>
    request.server.services.auth.authenticateForStudy(token, isStudyId(studyId) ? studyId : null),
  );
  assertApprovedResearcher(request);
  request.studyAccess = studyAccessFrom(found.study, found.role);
}

export function studyAccessOf(request: FastifyRequest): StudyAccess {
  if (!request.studyAccess)
    throw new AppError(403, 'NOT_A_MEMBER', 'You are not a member of this study.');
  return request.studyAccess;
}
