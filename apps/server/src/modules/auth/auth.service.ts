import type { AuthUser, UserProfile } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, conflict, tooManyRequests } from '../../errors.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import type { ApplicationRow } from '../applications/applications.repository.js';
import { recordAudit } from '../audit/audit.service.js';
import type { Messaging } from '../messaging/messaging.service.js';
import * as repo from './auth.repository.js';
import { issueSession as issueSessionFor } from './one-time-links.js';
import { hashPassword, verifyPassword } from './passwords.js';

export type { UserRow } from './auth.repository.js';

const MINUTE = 60_000;
/** Failed sign-ins are counted over this window… */
const THROTTLE_WINDOW_MS = 15 * MINUTE;
/** …and past these counts further attempts are refused until the oldest failure ages out. */
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_ADDRESS = 20;
/** Writing last-seen on every request would turn reads into writes; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;
const RESET_LINK_TTL_MS = 60 * MINUTE;
const MAX_RESET_MAILS_PER_HOUR = 3;

export const RESET_PASSWORD_SUCCESS = 'Your password has been changed. You can now sign in.';
export const INVALID_RESET_TOKEN_MESSAGE =
  'This link is invalid or has expired. Please request a new one.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export interface RequestContext {
  ip: string;
}

export function toAuthUser(user: repo.UserRow): AuthUser {
  return {
    id: user.id,
    uid: user.id,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoUrl,
    role: user.role,
  };
}

const splitName = (displayName: string) => {
  const [firstName = '', ...rest] = displayName.trim().split(/\s+/).filter(Boolean);
  return { firstName, lastName: rest.join(' ') };
};

/**
 * The profile of spec 000 §3; a master's id is the literal 'master'. A researcher's status,
 * names and institution come from their current application ('noprofile' without one).
 */
export function toProfile(user: repo.UserRow, application?: ApplicationRow): UserProfile {
  const names = splitName(user.displayName);
  if (user.role === 'master') {
    const blank = { institution: null, department: null, position: null, approvedAt: null };
    return {
      id: 'master',
      email: user.email,
      ...names,
      role: 'master',
      status: 'approved',
      ...blank,
      isMasterAccount: true,
    };
  }
  return {
    id: user.id,
    email: user.email,
    firstName: application?.firstName ?? names.firstName,
    lastName: application?.lastName ?? names.lastName,
    role: 'researcher',
    status: application?.status ?? 'noprofile',
    institution: application?.institution ?? null,
    department: application?.department ?? null,
    position: application?.position ?? null,
    approvedAt:
      application?.status === 'approved' ? (application.reviewedAt?.toISOString() ?? null) : null,
    isMasterAccount: false,
  };
}

export interface AuthDeps {
  db: Db;
  config: AppConfig;
  messaging: Messaging;
}

export function createAuthService({ db, config, messaging }: AuthDeps) {
  const idleMs = config.sessions.idleMinutes * MINUTE;

  const issueSession = (tx: DbOrTx, userId: string) => issueSessionFor(tx, userId, config);

  /** Refuses while an account or an address has too many recent failures. */
  async function assertNotThrottled(accountKey: string, addressKey: string) {
    const since = new Date(Date.now() - THROTTLE_WINDOW_MS);
    for (const [scope, key, limit] of [
      ['account', accountKey, MAX_FAILURES_PER_ACCOUNT],
      ['address', addressKey, MAX_FAILURES_PER_ADDRESS],
    ] as const) {
      const failures = await repo.recentAuthFailures(db, scope, key, since);
      const oldest = failures[0];
      if (failures.length >= limit && oldest) {
        const waitMs = oldest.createdAt.getTime() + THROTTLE_WINDOW_MS - Date.now();
        const minutes = Math.max(1, Math.ceil(waitMs / MINUTE));
        throw tooManyRequests(
          `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          'TOO_MANY_ATTEMPTS',
        );
      }
    }
  }

  return {
    issueSession,

    async register(
      input: { email: string; password: string; displayName: string },
      ctx: RequestContext,
    ) {
      if (await repo.findUserByEmail(db, input.email)) {
        throw conflict('An account with this email already exists', 'EMAIL_IN_USE');
      }
      const passwordHash = await hashPassword(input.password);
      try {
        return await db.transaction(async (tx) => {
          const user = await repo.insertUser(tx, {
            email: input.email,
            displayName: input.displayName.trim(),
            passwordHash,
            lastLoginAt: new Date(),
          });
          const token = await issueSession(tx, user.id);
          await recordAudit(tx, {
            actorId: user.id,
            action: 'auth.register',
            targetType: 'user',
            targetId: user.id,
            ip: ctx.ip,
          });
          return { token, user: toAuthUser(user) };
        });
      } catch (error) {
        // Two sign-ups with one address at the same moment: the unique index decides.
        if (
          (error as { code?: string }).code === '23505' ||
          String(error).includes('users_email_key')
        ) {
          throw conflict('An account with this email already exists', 'EMAIL_IN_USE');
        }
        throw error;
      }
    },

    async login(input: { email: string; password: string }, ctx: RequestContext) {
      const accountKey = sha256Hex(`account:${repo.normalizeEmail(input.email)}`);
      const addressKey = sha256Hex(`address:${ctx.ip}`);
      await assertNotThrottled(accountKey, addressKey);
      const user = await repo.findUserByEmail(db, input.email);
      const ok = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !ok) {
        await repo.recordAuthFailure(db, 'account', accountKey);
        await repo.recordAuthFailure(db, 'address', addressKey);
        // One answer for an unknown e-mail and a wrong password.
        throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
      }
      return db.transaction(async (tx) => {
        await repo.clearAuthFailures(tx, 'account', accountKey);
        const updated = await repo.updateUser(tx, user.id, { lastLoginAt: new Date() });
        const token = await issueSession(tx, user.id);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.sign_in',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
        return { token, user: toAuthUser(updated) };
      });
    },

    /** The user behind a bearer token, or null when it is unknown, revoked, idle too long or past its end. */
    async authenticate(token: string): Promise<{
      user: repo.UserRow;
      sessionId: string;
      applicationStatus: ApplicationRow['status'] | null;
    } | null> {
      const found = await repo.findLiveSession(db, sha256Hex(token));
      if (!found) return null;
      const now = Date.now();
      const { session } = found;
      if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
        await repo.revokeSession(db, session.tokenHash);
        return null;
      }
      if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS)
        await repo.touchSession(db, session.id, new Date(now));
      return {
        user: found.user,
        sessionId: session.id,
        applicationStatus: found.applicationStatus,
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

    /** Sends a single-use reset link when the account exists; the caller answers the same either way. */
    async requestPasswordReset(email: string, ctx: RequestContext) {
      const user = await repo.findUserByEmail(db, email);
      if (!user) return;
      const hourAgo = new Date(Date.now() - 60 * MINUTE);
      // A cap per account keeps the form from being used to flood someone's inbox.
      if (
        (await repo.countRecentTokens(db, user.id, 'reset_password', hourAgo)) >=
        MAX_RESET_MAILS_PER_HOUR
      )
        return;
      const token = randomToken(32);
      await db.transaction(async (tx) => {
        await repo.retireOneTimeTokens(tx, user.id, ['reset_password']);
        await repo.insertOneTimeToken(tx, {
          purpose: 'reset_password',
          tokenHash: sha256Hex(token),
          userId: user.id,
          expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
        });
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.password_reset_requested',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
      });
      const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      const mail = renderEmail({
        title: 'Reset your password',
        preheader: 'Your password reset link (valid for one hour)',
        paragraphs: [
          'We received a request to reset the password of your Wearable Health Research Platform account.',
          'The link below works once and expires in one hour.',
          'If you did not ask for this, ignore this e-mail: your password stays as it is.',
        ],
        action: { label: 'Reset password', url },
      });
      await messaging.queueEmail('password_reset', {
        to: user.email,
        subject: 'Reset your password',
        ...mail,
      });
    },

    async checkResetToken(token: string) {
      const row = await repo.findUsableOneTimeToken(db, sha256Hex(token), [
        'reset_password',
        'set_password',
      ]);
      const user = row?.userId ? await repo.findUserById(db, row.userId) : undefined;
      if (!row || !user)
        throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_RESET_TOKEN_MESSAGE);
      return { purpose: row.purpose as 'reset_password' | 'set_password', email: user.email };
    },

    /** Sets the new password and ends every session of the account. */
    async resetPassword(token: string, password: string, ctx: RequestContext) {
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const row = await repo.consumeOneTimeToken(tx, sha256Hex(token), [
          'reset_password',
          'set_password',
        ]);
        if (!row?.userId)
          throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_RESET_TOKEN_MESSAGE);
        const user = await repo.findUserById(tx, row.userId);
        if (!user) throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_RESET_TOKEN_MESSAGE);
        // Opening the mailed link proves the address is theirs.
        await repo.updateUser(tx, user.id, {
          passwordHash,
          emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
        });
        await repo.revokeUserSessions(tx, user.id);
        await repo.retireOneTimeTokens(tx, user.id, ['reset_password', 'set_password']);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.password_reset',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
