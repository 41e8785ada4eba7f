import { PARTICIPANT_SESSION_HEADER } from '@research/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The participant session token a request carries (header `x-participant-session`). Participants
 * have no bearer token; the wearable step and update-info read this and check it with
 * `services.verification.requireSession`.
 */
export function participantSessionToken(request: FastifyRequest): string | undefined {
  const value = request.headers[PARTICIPANT_SESSION_HEADER];
  const token = Array.isArray(value) ? value[0] : value;
  return token && token.length <= 200 ? token : undefined;
}

/** Who a verified session speaks for, once a preHandler checked it. */
export interface SessionHolder {
  participantId: string;
  studyId: string;
  /** The subject's (lower-cased) e-mail; undefined if the subject is gone. */
  email: string | undefined;
}

const holders = new WeakMap<FastifyRequest, SessionHolder>();

/**
 * preHandler: the request must carry a live, verified participant session (401/403 otherwise).
 * It runs before the handler reads the body, so a multipart upload is not parsed for a caller
 * without one. The holder is kept for the rate limit and the handler (`sessionHolder`).
 */
export function requireParticipantSession(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    holders.set(
      request,
      await app.services.enrolment.sessionHolder(participantSessionToken(request)),
    );
  };
}

export function sessionHolder(request: FastifyRequest): SessionHolder {
  const holder = holders.get(request);
  if (!holder) throw new Error('requireParticipantSession did not run');
  return holder;
}

/** Rate-limit key of the session's (study, e-mail), so the limit follows the person. */
export const bySessionHolder = (request: FastifyRequest) => {
  const holder = holders.get(request);
  if (!holder) return undefined;
  return `${holder.studyId}|${holder.email ?? holder.participantId}`;
};
