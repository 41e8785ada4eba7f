import {
  AUTH_EMAILS,
  AUTH_HARDENING_MESSAGES,
  AUTH_SERVER_MESSAGES,
  type AuthUser,
  type UserProfile,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, conflict, tooManyRequests } from '../../errors.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { recordAudit } from '../audit/index.js';
import type { Messaging } from '../messaging/index.js';
import * as repo from './auth.repository.js';
import { issueSession as issueSessionFor } from './one-time-links.js';
import { hashPassword, verifyPassword } from './passwords.js';

export type { UserRow } from './auth.repository.js';

type AttemptScope = repo.AttemptScope;

const MINUTE = 60_000;
/** Sign-in attempts are counted in fixed windows of this length. */
export const THROTTLE_WINDOW_MS = 15 * MINUTE;
/**
 * Refusing limits per window: an (account, client address) pair, and one address across
 * accounts. Neither can be driven by someone elsewhere, so guessing never locks the owner out
 * from their own address.
 */
export const SIGN_IN_LIMITS = { pair: 5, address: 20 } as const;
/**
 * Past this many attempts on one account in a window (guessing spread over many addresses) the
 * account only slows down: each address may try it once per cooldown from the start of its own
 * window. An address that has not tried the account yet is never refused, so the owner still
 * signs in; an address already guessing gets fewer tries than the pair limit allows.
 */
export const SIGN_IN_ACCOUNT_CEILING = 50;
export const SIGN_IN_SLOW_COOLDOWN_MS = 5 * MINUTE;
/** Writing last-seen on every request would turn reads into writes; once a minute is enough. */
const TOUCH_INTERVAL_MS = MINUTE;
const RESET_LINK_TTL_MS = 60 * MINUTE;
const MAX_RESET_MAILS_PER_HOUR = 3;
const CONFIRM_LINK_TTL_MS = 48 * 60 * MINUTE;
const MAX_CONFIRM_MAILS_PER_HOUR = 3;

export interface RequestContext {
  ip: string;
}

interface SignInKeys {
  pair: string;
  address: string;
  account: string;
}

/** Whether the account's owner proved the address (the rule behind applications and e-mail matches). */
export const isEmailVerified = (user: Pick<repo.UserRow, 'emailVerifiedAt'>): boolean =>
  user.emailVerifiedAt !== null;

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
 * The profile; a master's id is the literal 'master'. A researcher's status,
 * names and institution come from their current application ('noprofile' without one).
 */
export function toProfile(user: repo.UserRow, application?: repo.ApplicationOfUser): UserProfile {
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
      emailVerified: isEmailVerified(user),
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
    emailVerified: isEmailVerified(user),
  };
}

/** An account e-mail whose button is a single-use link; its subject is its title. */
function linkMail(
  texts: (typeof AUTH_EMAILS)[keyof typeof AUTH_EMAILS],
  url: string,
): { subject: string; html: string; text: string } {
  return {
    subject: texts.subject,
    ...renderEmail({
      title: texts.subject,
      preheader: texts.preheader,
      paragraphs: texts.paragraphs,
      action: { label: texts.action, url },
    }),
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

  const refuseFor = (waitMs: number) => {
    const minutes = Math.max(1, Math.ceil(waitMs / MINUTE));
    return tooManyRequests(
      AUTH_SERVER_MESSAGES.tooManySignInAttempts(minutes),
      'TOO_MANY_ATTEMPTS',
    );
  };

  /**
   * Counts this attempt against the pair, the address and the account before any password is
   * checked (so parallel attempts each get their own number), and refuses it when the pair or
   * the address is over its limit, or when the account is over its ceiling and this address has
   * tried it too recently.
   */
  async function countAttempt(keys: SignInKeys) {
    const now = new Date();
    const count = (scope: AttemptScope) =>
      repo.countSignInAttempt(db, scope, keys[scope], THROTTLE_WINDOW_MS, now);
    const windowEnd = (startedAt: Date) => startedAt.getTime() + THROTTLE_WINDOW_MS - now.getTime();

    const pair = await count('pair');
    if (pair.attempts > SIGN_IN_LIMITS.pair) throw refuseFor(windowEnd(pair.windowStartedAt));
    const address = await count('address');
    if (address.attempts > SIGN_IN_LIMITS.address)
      throw refuseFor(windowEnd(address.windowStartedAt));
    const account = await count('account');
    if (account.attempts <= SIGN_IN_ACCOUNT_CEILING) return;
    // The n-th attempt of this pair in its window may come (n - 1) cooldowns after it started,
    // and at the latest when a new window starts the count afresh.
    const started = pair.windowStartedAt.getTime();
    const dueAt = Math.min(
      started + (pair.attempts - 1) * SIGN_IN_SLOW_COOLDOWN_MS,
      started + THROTTLE_WINDOW_MS,
    );
    if (dueAt > now.getTime()) {
      // Not tried, so not counted: waiting the time we name is enough to get the next try.
      await repo.uncountSignInAttempt(db, keys);
      throw refuseFor(dueAt - now.getTime());
    }
  }

  /**
   * A fresh single-use link that proves the address (at sign-up, and on request). Only its hash
   * is stored, inside the caller's transaction; the mail is queued once that has committed.
   */
  async function createConfirmationLink(tx: DbOrTx, userId: string): Promise<string> {
    const token = randomToken(32);
    await repo.retireOneTimeTokens(tx, userId, ['confirm_email']);
    await repo.insertOneTimeToken(tx, {
      purpose: 'confirm_email',
      tokenHash: sha256Hex(token),
      userId,
      expiresAt: new Date(Date.now() + CONFIRM_LINK_TTL_MS),
    });
    return `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  }

  const mailConfirmation = (email: string, url: string) =>
    messaging.queueEmail('email_confirmation', {
      to: email,
      ...linkMail(AUTH_EMAILS.confirmEmail, url),
    });

  return {
    issueSession,

    async register(
      input: { email: string; password: string; displayName: string },
      ctx: RequestContext,
    ) {
      if (await repo.findUserByEmail(db, input.email)) {
        throw conflict(AUTH_SERVER_MESSAGES.emailInUse, 'EMAIL_IN_USE');
      }
      const passwordHash = await hashPassword(input.password);
      try {
        const created = await db.transaction(async (tx) => {
          const user = await repo.insertUser(tx, {
            email: input.email,
            displayName: input.displayName.trim(),
            passwordHash,
            lastLoginAt: new Date(),
          });
          const token = await issueSession(tx, user.id);
          const confirmUrl = await createConfirmationLink(tx, user.id);
          await recordAudit(tx, {
            actorId: user.id,
            action: 'auth.register',
            targetType: 'user',
            targetId: user.id,
            ip: ctx.ip,
          });
          return { token, user: toAuthUser(user), confirmUrl };
        });
        await mailConfirmation(created.user.email, created.confirmUrl);
        return { token: created.token, user: created.user };
      } catch (error) {
        // Two sign-ups with one address at the same moment: the unique index decides.
        if (isUniqueViolation(error, 'users_email_key')) {
          throw conflict(AUTH_SERVER_MESSAGES.emailInUse, 'EMAIL_IN_USE');
        }
        throw error;
      }
    },

    async login(input: { email: string; password: string }, ctx: RequestContext) {
      const email = repo.normalizeEmail(input.email);
      const keys: SignInKeys = {
        pair: sha256Hex(`pair:${email}\n${ctx.ip}`),
        address: sha256Hex(`address:${ctx.ip}`),
        account: sha256Hex(`account:${email}`),
      };
      await countAttempt(keys);
      const user = await repo.findUserByEmail(db, email);
      const ok = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !ok) {
        // One answer for an unknown e-mail and a wrong password.
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_SERVER_MESSAGES.invalidCredentials);
      }
      return db.transaction(async (tx) => {
        await repo.releaseSignInAttempt(tx, keys);
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

    /** A fresh confirmation link for a signed-in account whose address is not confirmed yet. */
    async resendConfirmation(user: repo.UserRow, ctx: RequestContext) {
      if (isEmailVerified(user)) return { alreadyConfirmed: true };
      const hourAgo = new Date(Date.now() - 60 * MINUTE);
      // A cap per account keeps the button from being used to flood an inbox.
      if (
        (await repo.countRecentTokens(db, user.id, 'confirm_email', hourAgo)) >=
        MAX_CONFIRM_MAILS_PER_HOUR
      )
        throw tooManyRequests(AUTH_HARDENING_MESSAGES.confirmationResendLimit, 'TOO_MANY_ATTEMPTS');
      const url = await db.transaction(async (tx) => {
        const link = await createConfirmationLink(tx, user.id);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.email_confirmation_sent',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
        return link;
      });
      await mailConfirmation(user.email, url);
      return { alreadyConfirmed: false };
    },

    /** Follows a mailed confirmation link: single use, and only for the address it was sent to. */
    async confirmEmail(token: string, ctx: RequestContext) {
      await db.transaction(async (tx) => {
        const row = await repo.consumeOneTimeToken(tx, sha256Hex(token), ['confirm_email']);
        const user = row?.userId ? await repo.findUserById(tx, row.userId) : undefined;
        if (!user)
          throw new AppError(
            400,
            'INVALID_CONFIRMATION_TOKEN',
            AUTH_HARDENING_MESSAGES.confirmationInvalid,
          );
        await repo.updateUser(tx, user.id, { emailVerifiedAt: user.emailVerifiedAt ?? new Date() });
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.email_confirmed',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
      });
    },

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
      await messaging.queueEmail('password_reset', {
        to: user.email,
        ...linkMail(AUTH_EMAILS.passwordReset, url),
      });
    },

    async checkResetToken(token: string) {
      const row = await repo.findUsableOneTimeToken(db, sha256Hex(token), [
        'reset_password',
        'set_password',
      ]);
      const user = row?.userId ? await repo.findUserById(db, row.userId) : undefined;
      if (!row || !user)
        throw new AppError(400, 'INVALID_RESET_TOKEN', AUTH_SERVER_MESSAGES.invalidResetLink);
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
          throw new AppError(400, 'INVALID_RESET_TOKEN', AUTH_SERVER_MESSAGES.invalidResetLink);
        const user = await repo.findUserById(tx, row.userId);
        if (!user)
          throw new AppError(400, 'INVALID_RESET_TOKEN', AUTH_SERVER_MESSAGES.invalidResetLink);
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
