import { AUTH_EMAILS, AUTH_HARDENING_MESSAGES } from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import { AppError, tooManyRequests } from '../../errors.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import { type AuthDeps, MINUTE, type RequestContext } from './auth-deps.js';
import { isEmailVerified } from './auth-users.js';
import { linkMail } from './one-time-links.js';

const CONFIRM_LINK_TTL_MS = 48 * 60 * MINUTE;
const MAX_CONFIRM_MAILS_PER_HOUR = 3;

/**
 * Proving an address: the mailed single-use link (sent at sign-up and on request) and following
 * it. `createLink` and `mail` are for sign-up, which sends the first link itself.
 */
export function createEmailConfirmation({ db, config, messaging }: AuthDeps) {
  /**
   * A fresh single-use link that proves the address (at sign-up, and on request). Only its hash
   * is stored, inside the caller's transaction; the mail is queued once that has committed.
   */
  async function createLink(tx: DbOrTx, userId: string): Promise<string> {
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

  const mail = (email: string, url: string) =>
    messaging.queueEmail(
      'email_confirmation',
      { to: email, ...linkMail(AUTH_EMAILS.confirmEmail, url) },
      { awaited: true },
    );

  const operations = {
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
        const link = await createLink(tx, user.id);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'auth.email_confirmation_sent',
          targetType: 'user',
          targetId: user.id,
          ip: ctx.ip,
        });
        return link;
      });
      await mail(user.email, url);
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
  };

  return { createLink, mail, operations };
}
