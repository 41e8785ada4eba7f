import {
  ACCESS_TOKEN_MESSAGES,
  isAccessTokenSecret,
  type OperationDefinition,
} from '@research/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import { bearerToken, type TokenCaller } from '../auth/index.js';
import { studyBucket } from '../studies/index.js';
import { findTokenForUse, type TokenForUse, touchToken } from './access-tokens.repository.js';
import { stateOf } from './access-tokens.service.js';

/** Writing last-used on every call would turn each read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

/** The path parameters that can name a token's study, in the order they are read. */
const STUDY_PARAMS = [':studyId', ':id', ':bucket'] as const;

type Refusal =
  | 'operation'
  | 'expired'
  | 'revoked'
  | 'study-deleted'
  | 'wrong-study'
  | 'not-a-member';

const M = ACCESS_TOKEN_MESSAGES;
const REFUSALS: Record<Exclude<Refusal, 'operation'>, () => AppError> = {
  expired: () => new AppError(401, 'ACCESS_TOKEN_INVALID', M.expired),
  revoked: () => new AppError(401, 'ACCESS_TOKEN_INVALID', M.revoked),
  'study-deleted': () => new AppError(401, 'ACCESS_TOKEN_INVALID', M.studyDeleted),
  'wrong-study': () => new AppError(403, 'ACCESS_TOKEN_WRONG_STUDY', M.wrongStudy),
  'not-a-member': () => new AppError(403, 'NOT_A_MEMBER', M.notAMember),
};

const nameOf = (operation: OperationDefinition) => `${operation.method} ${operation.path}`;

/** Whether the route's study (by `:studyId`, `:id` or `:bucket`) is the token's. */
function namesTokenStudy(request: FastifyRequest, studyId: string): boolean {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const named = params.studyId ?? params.id;
  if (typeof named === 'string') return named.toLowerCase() === studyId;
  if (typeof params.bucket === 'string')
    return params.bucket === studyBucket(request.server.platform.config, studyId);
  return false;
}

/**
 * Why a known token may not make this call, or null. The account must still be a member and an
 * approved researcher, and have been a member since before the token was made: leaving a study
 * and joining it again does not bring old tokens back.
 */
function refusalOf(found: TokenForUse, request: FastifyRequest, now: Date): Refusal | null {
  const state = stateOf(found.token, now);
  if (state !== 'active') return state;
  if (!found.study) return 'study-deleted';
  if (!namesTokenStudy(request, found.token.studyId)) return 'wrong-study';
  const member =
    found.role !== null &&
    found.joinedAt !== null &&
    found.joinedAt.getTime() <= found.token.createdAt.getTime() &&
    found.user.role === 'researcher' &&
    found.applicationStatus === 'approved';
  return member ? null : 'not-a-member';
}

/**
 * Calls made with a personal access token (`Authorization: Bearer wrp_pat_…`). Runs before
 * validation and every route's own guard: on an operation flagged `tokenAccess` it checks the token (known,
 * neither expired nor revoked), that the route's study is the token's, and that the account
 * still belongs to it, then hands the guards the caller (`request.tokenCaller`). Everywhere else
 * that takes a bearer credential a token is refused with a text saying where it works; routes
 * for anyone or for participants ignore it. Every call of a known token is audited (refused ones
 * with the reason), and each token has its own per-minute budget wherever it comes from.
 */
export function registerTokenUse(app: FastifyInstance) {
  const { db, config } = app.platform;
  const hashOf = (request: FastifyRequest) => sha256Hex(bearerToken(request) ?? '');
  const budget = app.createRateLimit({
    max: config.accessTokenRateLimit,
    timeWindow: '1 minute',
    // The secret's hash: the limiter's memory holds no usable token.
    keyGenerator: (request) => `access-token:${hashOf(request)}`,
  });

  // A route that takes tokens must name its study, or no call of it could ever be allowed.
  app.addHook('onRoute', (route) => {
    const operation = route.config?.operation;
    if (operation?.tokenAccess && !STUDY_PARAMS.some((param) => operation.path.includes(param)))
      throw new Error(`${nameOf(operation)} takes access tokens but names no study`);
  });

  // Before validation: a call a token may not make tells its script nothing about its input.
  app.addHook('preValidation', async (request) => {
    const secret = bearerToken(request);
    if (!secret || !isAccessTokenSecret(secret)) return;
    const operation = request.routeOptions.config.operation;
    // Outside the operations, and on calls that take no bearer credential, a token means nothing.
    if (!operation) return;
    if (!operation.tokenAccess && (operation.auth === 'public' || operation.auth === 'participant'))
      return;

    const limited = await budget(request);
    if (!limited.isAllowed && limited.isExceeded) {
      throw new AppError(429, 'RATE_LIMITED', M.tooManyRequests(limited.ttlInSeconds), {
        retryAfterSeconds: limited.ttlInSeconds,
      });
    }

    const found = await findTokenForUse(db, sha256Hex(secret));
    const now = new Date();
    const refusal: Refusal | null = !operation.tokenAccess
      ? 'operation'
      : found
        ? refusalOf(found, request, now)
        : null;
    if (found) {
      // Recorded before the call runs, so a call that fails half-way is still on record.
      await recordAudit(db, {
        actorId: found.token.userId,
        studyId: found.token.studyId,
        action: refusal ? 'access_token.refused' : 'access_token.used',
        targetType: 'access_token',
        targetId: found.token.id,
        details: {
          operation: nameOf(operation),
          studyId: found.token.studyId,
          ...(refusal ? { reason: refusal } : {}),
        },
        ip: request.ip,
      });
    }
    if (refusal === 'operation') throw new AppError(401, 'UNAUTHENTICATED', M.notAccepted);
    if (!found) throw new AppError(401, 'ACCESS_TOKEN_INVALID', M.unknown);
    if (refusal) throw REFUSALS[refusal]();

    const { token, study, role } = found;
    if (!study || !role) throw REFUSALS['not-a-member']();
    const lastUsed = token.lastUsedAt?.getTime() ?? 0;
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS || token.lastUsedIp !== request.ip)
      await touchToken(db, token.id, now, request.ip);
    const caller: TokenCaller = {
      tokenId: token.id,
      user: found.user,
      applicationStatus: found.applicationStatus,
      study,
      role,
    };
    request.tokenCaller = caller;
  });
}
