import { authApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../api-client';

/**
 * The session calls of the auth and user providers, loaded on first use: their operations carry
 * the contracts' schemas (and so zod), which a signed-out visitor of the landing route never
 * needs (its JavaScript budget is 150 KB gzip).
 */

/** Sessions are opened without the stored token: a stale one must not ride along. */
const WITHOUT_TOKEN = { token: null } as const;

export const verifyToken = (token: string) =>
  callOperation(authApi.verifyToken, { body: { token } }, WITHOUT_TOKEN);

export const login = (email: string, password: string) =>
  callOperation(authApi.login, { body: { email, password } }, WITHOUT_TOKEN);

export const register = (email: string, password: string, displayName: string) =>
  callOperation(authApi.register, { body: { email, password, displayName } }, WITHOUT_TOKEN);

export const completeGoogleSignIn = (result: OperationBody<typeof authApi.googleComplete>) =>
  callOperation(authApi.googleComplete, { body: result }, WITHOUT_TOKEN);

export const setupMaster = (request: OperationBody<typeof authApi.setupMaster>) =>
  callOperation(authApi.setupMaster, { body: request }, WITHOUT_TOKEN);

/** One attempt: the user is already signed out here; the call only revokes the server side. */
export const logout = (token: string) =>
  callOperation(authApi.logout, {}, { token, retryAttempts: 1 });

export const checkMasterStatus = (token: string) =>
  callOperation(authApi.checkMasterStatus, {}, { token });

export const getProfile = (token: string) => callOperation(authApi.getProfile, {}, { token });
