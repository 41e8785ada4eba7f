import { AUTH_SERVER_MESSAGES } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError, conflict } from '../../errors.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import { isEmailVerified, type RequestContext, toAuthUser } from './auth.service.js';
import { createSetPasswordLink, issueSession } from './one-time-links.js';
import { hashPassword } from './passwords.js';

const SETUP_LINK_TTL_MS = 24 * 60 * 60_000;

/**
 * The master (administrator) account: created from the one-time link printed at start while
 * none exists, or by an operator with `npm run admin -- create-master`.
 */
export function createMasterService({ db, config }: { db: Db; config: AppConfig }) {
  async function createOrPromote(
    tx: Tx,
    input: { email: string; passwordHash?: string; displayName?: string },
  ) {
    const existing = await repo.findUserByEmail(tx, input.email);
    if (existing) {
      // Whoever registered an address that was never proven may not be its owner: their
      // password, Google link and sessions must not become master powers. Only the
      // set-password link (or the password given here) opens the promoted account.
      const unproven = !isEmailVerified(existing);
      const user = await repo.updateUser(tx, existing.id, {
        role: 'master',
        ...(unproven ? { passwordHash: null, googleSubject: null } : {}),
        ...(input.passwordHash ? { passwordHash: input.passwordHash } : {}),
        ...(input.displayName ? { displayName: input.displayName } : {}),
      });
      // A new password, or new powers, should not ride on sessions opened before.
      await repo.revokeUserSessions(tx, user.id);
      if (unproven)
        await repo.retireOneTimeTokens(tx, user.id, ['reset_password', 'confirm_email']);
      return { user, created: false };
    }
    const user = await repo.insertUser(tx, {
      email: input.email,
      displayName: input.displayName ?? '',
      passwordHash: input.passwordHash ?? null,
      role: 'master',
    });
    return { user, created: true };
  }

  return {
    /** While no master exists: a fresh single-use set-up URL (older ones stop working). */
    async ensureSetupLink(): Promise<string | null> {
      if (await repo.masterExists(db)) return null;
      const token = randomToken(32);
      await db.transaction(async (tx) => {
        await repo.retireOneTimeTokens(tx, null, ['master_setup']);
        await repo.insertOneTimeToken(tx, {
          purpose: 'master_setup',
          tokenHash: sha256Hex(token),
          userId: null,
          expiresAt: new Date(Date.now() + SETUP_LINK_TTL_MS),
        });
      });
      return `${config.publicUrl}/setup?token=${encodeURIComponent(token)}`;
    },

    async setupStatus(token: string) {
      const masterExists = await repo.masterExists(db);
      const row = await repo.findUsableOneTimeToken(db, sha256Hex(token), ['master_setup']);
      return { valid: Boolean(row) && !masterExists, masterExists };
    },

    async setupMaster(
      token: string,
      input: { email: string; password: string; displayName: string },
      ctx: RequestContext,
    ) {
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        const row = await repo.consumeOneTimeToken(tx, sha256Hex(token), ['master_setup']);
        if (!row)
          throw new AppError(400, 'INVALID_SETUP_TOKEN', AUTH_SERVER_MESSAGES.invalidSetupLink);
        if (await repo.masterExists(tx))
          throw conflict(AUTH_SERVER_MESSAGES.masterExists, 'MASTER_EXISTS');
        const { user } = await createOrPromote(tx, {
          email: input.email,
          passwordHash,
          displayName: input.displayName.trim(),
        });
        // Whoever holds the link printed at start is the operator who chose this address.
        const updated = await repo.updateUser(tx, user.id, {
          lastLoginAt: new Date(),
          emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
        });
        const sessionToken = await issueSession(tx, user.id, config);
        await recordAudit(tx, {
          actorId: user.id,
          action: 'admin.master_created',
          targetType: 'user',
          targetId: user.id,
          details: { via: 'setup_link' },
          ip: ctx.ip,
        });
        return { token: sessionToken, user: toAuthUser(updated) };
      });
    },

    /** For the admin CLI: with a password it is set; without one a set-password link is returned. */
    async createOrPromoteMaster(input: { email: string; password?: string; displayName?: string }) {
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      return db.transaction(async (tx) => {
        const { user, created } = await createOrPromote(tx, {
          email: input.email,
          ...(passwordHash ? { passwordHash } : {}),
          ...(input.displayName ? { displayName: input.displayName } : {}),
        });
        await repo.retireOneTimeTokens(tx, null, ['master_setup']);
        const setPasswordUrl = passwordHash
          ? undefined
          : await createSetPasswordLink(tx, user.id, config);
        await recordAudit(tx, {
          actorId: null,
          action: created ? 'admin.master_created' : 'admin.master_promoted',
          targetType: 'user',
          targetId: user.id,
          details: { via: 'cli' },
        });
        return { email: user.email, created, setPasswordUrl };
      });
    },
  };
}

export type MasterService = ReturnType<typeof createMasterService>;
