import { ENROLMENT_SERVER_MESSAGES } from '@research/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { SubjectLimit } from '../../http/rate-limits.js';
import { sha256Hex } from '../../platform/crypto.js';

type Pick = (request: FastifyRequest) => string | undefined;

const field =
  (...names: string[]): Pick =>
  (request) => {
    const source = {
      ...(request.query as object),
      ...(request.params as object),
      ...(request.body as object),
    } as Record<string, unknown>;
    const values = names.map((name) =>
      typeof source[name] === 'string' ? (source[name] as string) : '',
    );
    return values.some(Boolean) ? values.join('|') : undefined;
  };

/** Keys a public participant call is limited by besides the client address. */
export const byStudyAndEmail = field('studyCode', 'email');
export const byStudyAndParticipant = field('studyCode', 'participantId');
export const bySession = field('sessionId');

/**
 * A second limit per (study code, e-mail) or similar, on top of the per-address one (route
 * config; both budgets are named in http/rate-limits.ts): spreading guesses over many addresses does not help. The key is hashed, so the
 * limiter's memory holds no e-mail addresses. (The plugin's own preHandler is skipped once the
 * route's limit ran, hence `createRateLimit`.)
 */
export function perSubject(app: FastifyInstance, { group, max }: SubjectLimit, pick: Pick) {
  const check = app.createRateLimit({
    max,
    timeWindow: '1 minute',
    keyGenerator: (request) => {
      const key = pick(request);
      return key ? `${group}:${sha256Hex(key.toLowerCase())}` : `${group}:address:${request.ip}`;
    },
  });
  return async (request: FastifyRequest) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError(
        429,
        'RATE_LIMITED',
        ENROLMENT_SERVER_MESSAGES.tooManyRequests(result.ttlInSeconds),
        { retryAfterSeconds: result.ttlInSeconds },
      );
    }
  };
}
