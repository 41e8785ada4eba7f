import * as oidc from 'openid-client';
import { GoogleHealthError } from './errors.js';
import type { GoogleHealthEndpoints, TokenSet } from './types.js';

/**
 * Google's OAuth grants (code exchange, refresh, revocation) through `openid-client`, which builds
 * the requests (client authentication, PKCE verifier) and checks the token answers. Our transport
 * still sends them: it owns the timeout, the retry policy (429/5xx, never other 4xx) and the error
 * classification the wearables service relies on (`invalid_grant` means the grant is dead), and
 * it keeps Fitbit hosts out. The metadata is static because the endpoints are configured one by
 * one and the Health grants are plain OAuth (no `openid` scope, no ID token): discovery would
 * only add a network call and a failure mode before the first exchange.
 */

/** Sends one request with retries; resolves with a 2xx answer, throws GoogleHealthError else. */
export type Transmit = (
  url: string,
  init: RequestInit,
) => Promise<{ response: Response; bytes: Buffer }>;

function configuration(
  endpoints: GoogleHealthEndpoints,
  transmit: Transmit,
  auth: oidc.ClientAuth,
): oidc.Configuration {
  const config = new oidc.Configuration(
    {
      // Only compared with an `iss` in a response or an ID token; these grants carry neither.
      issuer: new URL(endpoints.authUrl).origin,
      authorization_endpoint: endpoints.authUrl,
      token_endpoint: endpoints.tokenUrl,
      revocation_endpoint: endpoints.revokeUrl,
    },
    endpoints.clientId,
    undefined,
    auth,
  );
  config[oidc.customFetch] = async (url, init) => {
    const { signal: _theirs, ...rest } = init;
    const { response, bytes } = await transmit(url, rest as RequestInit);
    // The transport read the body; openid-client reads it again from a copy.
    return new Response(bytes.length > 0 ? new Uint8Array(bytes) : null, {
      status: response.status,
      headers: response.headers,
    });
  };
  // Plain http is only ever the loopback sandbox (the configuration refuses it elsewhere).
  if ([endpoints.tokenUrl, endpoints.revokeUrl].some((u) => u.startsWith('http://'))) {
    oidc.allowInsecureRequests(config);
  }
  return config;
}

/** openid-client wraps what our transport throws; other failures are answers we cannot use. */
function unwrap(error: unknown): never {
  if (error instanceof GoogleHealthError) throw error;
  if (error instanceof oidc.ClientError) {
    if (error.cause instanceof GoogleHealthError) throw error.cause;
    const reason = error.code ?? 'INVALID_RESPONSE';
    throw new GoogleHealthError(
      'invalid_response',
      200,
      reason,
      `Google OAuth: unusable token answer (${reason})`,
    );
  }
  throw error;
}

function tokenSetFrom(body: Record<string, unknown>, now: number): TokenSet {
  const expiresIn = Number(body.expires_in ?? 3600);
  const refreshExpiresIn =
    body.refresh_token_expires_in === undefined ? null : Number(body.refresh_token_expires_in);
  return {
    // openid-client has checked it is a string.
    accessToken: String(body.access_token),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: new Date(now + expiresIn * 1000),
    refreshExpiresAt: refreshExpiresIn === null ? null : new Date(now + refreshExpiresIn * 1000),
    scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter(Boolean) : [],
  };
}

export function createOAuthGrants(endpoints: GoogleHealthEndpoints, transmit: Transmit) {
  const tokens = configuration(endpoints, transmit, oidc.ClientSecretPost(endpoints.clientSecret));
  // Google's revocation endpoint takes the token alone; the secret need not travel there.
  const revocation = configuration(endpoints, transmit, oidc.None());

  return {
    async exchangeCode(input: {
      code: string;
      codeVerifier: string;
      redirectUri: string;
    }): Promise<TokenSet> {
      // openid-client reads the code from the callback URL and sends that URL without its query
      // as redirect_uri; our caller has already checked the state.
      const callback = new URL(input.redirectUri);
      callback.searchParams.set('code', input.code);
      const answer = await oidc
        .authorizationCodeGrant(tokens, callback, { pkceCodeVerifier: input.codeVerifier })
        .catch(unwrap);
      return tokenSetFrom(answer, Date.now());
    },

    async refresh(refreshToken: string): Promise<TokenSet> {
      const answer = await oidc.refreshTokenGrant(tokens, refreshToken).catch(unwrap);
      return tokenSetFrom(answer, Date.now());
    },

    async revoke(token: string): Promise<void> {
      await oidc.tokenRevocation(revocation, token).catch(unwrap);
    },
  };
}
