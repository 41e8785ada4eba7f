import { AUTH_SERVER_MESSAGES } from '@research/contracts';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, conflict } from '../../errors.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './auth.repository.js';
import type { AuthDeps, RequestContext } from './auth-deps.js';
import { createSessionOperations } from './auth-sessions.js';
import { toAuthUser } from './auth-users.js';
import { createEmailConfirmation } from './email-confirmation.js';
import { createPasswordResetOperations } from './password-reset.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { countSignInAttempt, signInKeysOf } from './sign-in-throttle.js';

export type { UserRow } from './auth.repository.js';
export type { AuthDeps, RequestContext } from './auth-deps.js';
export { isEmailVerified, toAuthUser, toProfile } from './auth-users.js';
export {
  SIGN_IN_ACCOUNT_CEILING,
  SIGN_IN_LIMITS,
  SIGN_IN_SLOW_COOLDOWN_MS,
  THROTTLE_WINDOW_MS,
} from './sign-in-throttle.js';

/**
 * Accounts with a password: sign-up and sign-in here; sessions, confirming the address and
 * resetting the password in their own files. The service is their union.
 */
export function createAuthService(deps: AuthDeps) {
  const { db } = deps;
  const sessions = createSessionOperations(deps);
  const confirmation = createEmailConfirmation(deps);

  return {
    ...sessions,
    ...confirmation.operations,
    ...createPasswordResetOperations(deps),

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
          const token = await sessions.issueSession(tx, user.id);
          const confirmUrl = await confirmation.createLink(tx, user.id);
          await recordAudit(tx, {
            actorId: user.id,
            action: 'auth.register',
            targetType: 'user',
            targetId: user.id,
            ip: ctx.ip,
          });
          return { token, user: toAuthUser(user), confirmUrl };
        });
        await confirmation.mail(created.user.email, created.confirmUrl);
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
      const keys = signInKeysOf(email, ctx);
      await countSignInAttempt(db, keys);
      const user = await repo.findUserByEmail(db, email);
      const ok = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !ok) {
        // One answer for an unknown e-mail and a wrong password.
        throw new AppError(401, 'INVALID_CREDENTIALS', AUTH_SERVER_MESSAGES.invalidCredentials);
      }
      return db.transaction(async (tx) => {
        await repo.releaseSignInAttempt(tx, keys);
        const updated = await repo.updateUser(tx, user.id, { lastLoginAt: new Date() });
        const token = await sessions.issueSession(tx, user.id);
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
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
