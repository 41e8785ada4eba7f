import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth.routes.js';
import { localAdminRoutes } from './local-admin.routes.js';

/**
 * Study joining keeps its failed attempts with the sign-in failures (one table, one purge), and
 * checks an invited collaborator's account inside its own transaction.
 */
export {
  findUserByEmail,
  findUserById,
  recentAuthFailures,
  recordAuthFailure,
  type SessionStudy,
  type SessionStudyRole,
  type UserRow,
} from './auth.repository.js';
export {
  type AuthService,
  createAuthService,
  isEmailVerified,
  type RequestContext,
} from './auth.service.js';
export { createAuthPurgeJob } from './auth-purge.js';
export {
  bearerToken,
  currentUser,
  requireMaster,
  requireUser,
  signIn,
  type TokenCaller,
} from './authenticate.js';
export { createGoogleSignIn, type GoogleSignIn } from './google-sign-in.js';
export { createMasterService, type MasterService } from './master.service.js';

export const routes: FastifyPluginAsync = async (app) => {
  await app.register(authRoutes);
  await app.register(localAdminRoutes);
};
