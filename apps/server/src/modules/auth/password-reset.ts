import { AUTH_EMAILS, AUTH_SERVER_MESSAGES } from '@research/contracts';
import { AppError } from '../../errors.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import { type AuthDeps, MINUTE, type RequestContext } from './auth-deps.js';
import { linkMail } from './one-time-links.js';
import { hashPassword } from './passwords.js';

const RESET_LINK_TTL_MS = 60 * MINUTE;
const MAX_RESET_MAILS_PER_HOUR = 3;

/** A forgotten password: the mailed reset link, checking it, and setting the new password. */
export function createPasswordResetOperations({ db, config, messaging }: AuthDeps) {
  return {
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
      await messaging.queueEmail(
        'password_reset',
        { to: user.email, ...linkMail(AUTH_EMAILS.passwordReset, url) },
        { awaited: true },
      );
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
