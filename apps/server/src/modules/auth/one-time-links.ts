import type { AUTH_EMAILS } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import * as repo from './auth.repository.js';

const HOUR_MS = 60 * 60_000;

/** Opens a session for a user; the token goes to the client, only its hash is stored. */
export async function issueSession(tx: DbOrTx, userId: string, config: AppConfig): Promise<string> {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + config.sessions.maxHours * HOUR_MS);
  await repo.insertSession(tx, { userId, tokenHash: sha256Hex(token), expiresAt });
  return token;
}

/** A single-use link (24 h) to choose a password, e.g. for an account an operator created. */
export async function createSetPasswordLink(
  tx: DbOrTx,
  userId: string,
  config: AppConfig,
): Promise<string> {
  const token = randomToken(32);
  await repo.retireOneTimeTokens(tx, userId, ['set_password']);
  await repo.insertOneTimeToken(tx, {
    purpose: 'set_password',
    tokenHash: sha256Hex(token),
    userId,
    expiresAt: new Date(Date.now() + 24 * HOUR_MS),
  });
  return `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** An account e-mail whose button is a single-use link; its subject is its title. */
export function linkMail(
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
