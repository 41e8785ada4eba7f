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
  /** The JWT-bearer grant of service accounts (no client authentication); absent: unsupported. */
  jwtBearer?: JwtBearerGrant;
}

/** Trades a signed assertion for an access token, or says why not in OAuth's error terms. */
export type JwtBearerGrant = (
  assertion: string | undefined,
  tokenUrl: string,
) => Promise<
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; error: string; description: string }
>;

export const findClient = (ctx: OidcContext, clientId: string) =>
  ctx.clients.find((c) => c.clientId === clientId);
