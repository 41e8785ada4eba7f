/**
 * Personal access tokens: a member's credential for scripts, for one study, on the operations
 * flagged `tokenAccess` only. `registerTokenUse` checks every call made with one (app.ts adds it
 * before any module's routes, so its hook runs before their guards).
 */

export { accessTokensRoutes as routes } from './access-tokens.routes.js';
export {
  type AccessTokensService,
  createAccessTokensService,
} from './access-tokens.service.js';
export { registerTokenUse } from './token-use.js';
