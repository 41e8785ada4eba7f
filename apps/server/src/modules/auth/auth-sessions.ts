import type { DbOrTx } from '../../db/client.js';
import { sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import { type AuthDeps, MINUTE, type RequestContext } from './auth-deps.js';
import { issueSession as issueSessionFor } from './one-time-links.js';

/** Writing last-seen on every request would turn reads into writes; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;

/** Sessions: opened, found behind a bearer token on each request, kept alive, ended. */
export function createSessionOperations({ db, config }: Pick<AuthDeps, 'db' | 'config'>) {
  const idleMs = config.sessions.idleMinutes * MINUTE;

  /** Revokes a session past its end or idle too long (false); otherwise notes it was seen. */
  async function keepAlive(session: repo.SessionRow): Promise<boolean> {
    const now = Date.now();
    if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
      await repo.revokeSession(db, session.tokenHash);
      return false;
    }
    if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS)
      await repo.touchSession(db, session.id, new Date(now));
    return true;
  }

  return {
    issueSession: (tx: DbOrTx, userId: string) => issueSessionFor(tx, userId, config),

    /** The user behind a bearer token, or null when it is unknown, revoked, idle too long or past its end. */
    async authenticate(token: string): Promise<{
      user: repo.UserRow;
      sessionId: string;
      applicationStatus: repo.ApplicationStatus | null;
    } | null> {
      const found = await repo.findLiveSession(db, sha256Hex(token));
      if (!found || !(await keepAlive(found.session))) return null;
      return {
        user: found.user,
        sessionId: found.session.id,
        applicationStatus: found.applicationStatus,
      };
    },

    /**
     * `authenticate` plus a live study and the caller's role in it (both null when the study is
     * unknown or deleted, or studyId is null; role null for a non-member), in one statement.
     */
    async authenticateForStudy(
      token: string,
      studyId: string | null,
    ): Promise<{
      user: repo.UserRow;
      sessionId: string;
      applicationStatus: repo.ApplicationStatus | null;
      study: repo.SessionStudy | null;
      role: repo.SessionStudyRole | null;
    } | null> {
      const found = await repo.findLiveSessionWithStudy(db, sha256Hex(token), studyId);
      if (!found || !(await keepAlive(found.session))) return null;
      return {
        user: found.user,
        sessionId: found.session.id,
        applicationStatus: found.applicationStatus,
        study: found.study,
        role: found.role,
      };
    },

    async logout(token: string, ctx: RequestContext, userId: string) {
      await repo.revokeSession(db, sha256Hex(token));
      await recordAudit(db, {
        actorId: userId,
        action: 'auth.sign_out',
        targetType: 'user',
        targetId: userId,
        ip: ctx.ip,
      });
    },
  };
}
