import type { Clock } from './health/clock.js';
import type { GrantStore } from './oidc-grants.js';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /**
   * The client's "Authorized redirect URIs": when given, redirect_uri must equal one of them
   * exactly. Without a list any http loopback URI is accepted (local runs pick their own ports).
   */
  redirectUris?: string[];
}

/** What the issuer's route groups share; built once by registerOidc. */
export interface OidcContext {
  /** Read at request time: the public URL is only known once the HTTP port is bound. */
  issuer: () => string;
  clients: OAuthClient[];
  grants: GrantStore;
  clock: Clock;
  /** Read per consent: the client's publishing status is "Testing" (7-day refresh tokens). */
  testingMode: () => boolean;
}

export const findClient = (ctx: OidcContext, clientId: string) =>
  ctx.clients.find((c) => c.clientId === clientId);
