import type { FastifyInstance } from 'fastify';
import type { Clock } from './health/clock.js';
import { registerAuthorize } from './oidc-authorize.js';
import type { JwtBearerGrant, OAuthClient, OidcContext } from './oidc-context.js';
import { registerDiscovery } from './oidc-discovery.js';
import { GrantStore } from './oidc-grants.js';
import { createIdTokens, type IdTokenTamper, type MintOptions } from './oidc-id-token.js';
import { loadOrCreateSigningKey } from './oidc-keys.js';
import { registerToken } from './oidc-token.js';
import { registerTokenUse } from './oidc-userinfo.js';

export { TESTING_REFRESH_TOKEN_MS } from './oidc-authorize.js';
export type { JwtBearerGrant, OAuthClient } from './oidc-context.js';
export { AUTHORIZE_PATH, isAllowedRedirectUri } from './oidc-http.js';
export type { IdTokenTamper, MintOptions } from './oidc-id-token.js';

export interface OidcOptions {
  /** Read at request time: the public URL is only known once the HTTP port is bound. */
  issuer: () => string;
  clients: OAuthClient[];
  dataDir?: string;
  /** Shared with the Health API so tests can pass hours and days. Default: real time. */
  clock?: Clock;
  /** Read per consent: the client's publishing status is "Testing" (7-day refresh tokens). */
  testingMode?: () => boolean;
  /** Service accounts' JWT-bearer grant at the token endpoint. */
  jwtBearer?: JwtBearerGrant;
}

export interface OidcIssuer {
  grants: GrantStore;
  mintIdToken(claims: Record<string, unknown>, options?: MintOptions): Promise<string>;
  tamperNextIdToken(tamper: IdTokenTamper): void;
}

/**
 * Google-like OpenID Connect issuer and OAuth 2.0 authorization server: discovery and keys,
 * the authorization endpoint with its account page, the token endpoint, and the endpoints that
 * take an issued token (userinfo, tokeninfo, revocation).
 */
export async function registerOidc(
  app: FastifyInstance,
  options: OidcOptions,
): Promise<OidcIssuer> {
  const signingKey = await loadOrCreateSigningKey(options.dataDir);
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const ctx: OidcContext = {
    issuer: options.issuer,
    clients: options.clients,
    grants: new GrantStore(options.dataDir, clock),
    clock,
    testingMode: options.testingMode ?? (() => false),
    ...(options.jwtBearer ? { jwtBearer: options.jwtBearer } : {}),
  };
  const idTokens = createIdTokens(ctx, signingKey);

  registerDiscovery(app, ctx, signingKey);
  registerAuthorize(app, ctx);
  registerToken(app, ctx, idTokens);
  registerTokenUse(app, ctx);

  return {
    grants: ctx.grants,
    tamperNextIdToken: (tamper) => idTokens.tamperNext(tamper),
    mintIdToken: (claims, mintOptions = {}) => idTokens.mint(claims, mintOptions),
  };
}
