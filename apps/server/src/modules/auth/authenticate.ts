import {
  ACCESS_TOKEN_MESSAGES,
  AUTH_SERVER_MESSAGES,
  authenticationRequiredTo,
  isAccessTokenSecret,
} from '@research/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../../errors.js';
import type { SessionStudy, SessionStudyRole, UserRow } from './auth.repository.js';

/**
 * A caller whose personal access token the access-tokens module has already checked for this
 * route (the operation takes tokens, the study is the token's, the account still a member of
 * it): the guards take it instead of a session.
 */
export interface TokenCaller {
  tokenId: string;
  user: UserRow;
  applicationStatus: 'pending' | 'approved' | 'rejected' | null;
  study: SessionStudy;
  role: SessionStudyRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser` / `requireMaster`; null on public routes. */
    user: UserRow | null;
    sessionToken: string | null;
    /** The status of the user's current researcher application, read with the session. */
    applicationStatus: 'pending' | 'approved' | 'rejected' | null;
    /** Set before the guards when the call came with a checked personal access token. */
    tokenCaller: TokenCaller | null;
  }
}

const unauthenticated = () => new AppError(401, 'UNAUTHENTICATED', authenticationRequiredTo());

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** preHandler: a live session is required (401 otherwise). */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  await signIn(request, (token) => request.server.services.auth.authenticate(token));
}

/**
 * The 401s of `requireUser` around any session lookup (a guard may read more in the same
 * statement); sets the request's user and returns what the lookup found. A personal access
 * token is never a session: it passes only as the caller the access-tokens module checked
 * before the guards, and is refused (with a text saying so) wherever that did not happen.
 */
export async function signIn<
  T extends { user: UserRow; applicationStatus: FastifyRequest['applicationStatus'] },
>(request: FastifyRequest, lookup: (token: string) => Promise<T | null>): Promise<T | TokenCaller> {
  const token = bearerToken(request);
  if (!token) throw unauthenticated();
  if (isAccessTokenSecret(token)) {
    const caller = request.tokenCaller;
    if (!caller) throw new AppError(401, 'UNAUTHENTICATED', ACCESS_TOKEN_MESSAGES.notAccepted);
    request.user = caller.user;
    request.sessionToken = null;
    request.applicationStatus = caller.applicationStatus;
    return caller;
  }
  const found = await lookup(token);
  if (!found) throw new AppError(401, 'SESSION_EXPIRED', AUTH_SERVER_MESSAGES.sessionExpired);
  request.user = found.user;
  request.sessionToken = token;
  request.applicationStatus = found.applicationStatus;
  return found;
}

/** preHandler: the master account only (401 signed out, 403 anyone else). */
export async function requireMaster(request: FastifyRequest, reply: FastifyReply) {
  await requireUser(request, reply);
  if (request.user?.role !== 'master')
    throw forbidden(AUTH_SERVER_MESSAGES.masterOnly, 'MASTER_ONLY');
}

/** The signed-in user inside a handler guarded by requireUser/requireMaster. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthenticated();
  return request.user;
}
