import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findClient, type OAuthClient, type OidcContext } from './oidc-context.js';
import { ACCESS_TOKEN_SECONDS, type Grant } from './oidc-grants.js';
import { base64UrlSha256, oauthError, PKCE_VALUE, param, safeEqual } from './oidc-http.js';
import type { IdTokens } from './oidc-id-token.js';

type ClientRefused = { status: number; error: string; description: string };

/** client_secret_post or client_secret_basic, like Google's token endpoint. */
function authenticateClient(
  ctx: OidcContext,
  request: FastifyRequest,
): { client: OAuthClient } | ClientRefused {
  let clientId = param(request.body, 'client_id');
  let clientSecret = param(request.body, 'client_secret');
  const unauthorized = { status: 401, error: 'invalid_client', description: 'Unauthorized' };
  const header = request.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return unauthorized;
    // RFC 6749 §2.3.1: both halves are form-urlencoded before being joined.
    const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
    try {
      clientId = decode(decoded.slice(0, colon));
      clientSecret = decode(decoded.slice(colon + 1));
    } catch {
      return unauthorized;
    }
  }
  if (!clientId) {
    return {
      status: 400,
      error: 'invalid_request',
      description: 'Could not determine client ID from request.',
    };
  }
  const client = findClient(ctx, clientId);
  if (!client) {
    return { status: 401, error: 'invalid_client', description: 'The OAuth client was not found.' };
  }
  if (!clientSecret || !safeEqual(clientSecret, client.clientSecret)) return unauthorized;
  return { client };
}

/** Google's token answer: an hour's access token, the refresh token when asked, an ID token for openid. */
async function tokenResponse(
  ctx: OidcContext,
  idTokens: IdTokens,
  grant: Grant,
  nonce: string | null,
  includeRefresh: boolean,
) {
  const access = ctx.grants.issueAccessToken(grant);
  const body: Record<string, unknown> = {
    access_token: access.token,
    expires_in: ACCESS_TOKEN_SECONDS - 1,
    scope: grant.scopes.join(' '),
    token_type: 'Bearer',
  };
  if (includeRefresh && grant.refreshToken) body.refresh_token = grant.refreshToken;
  if (grant.refreshToken && grant.refreshExpiresAt) {
    // Like expires_in (3599 for an hour), the remaining lifetime less one second: 604799 at consent.
    body.refresh_token_expires_in = Math.max(
      0,
      Math.ceil((grant.refreshExpiresAt - ctx.clock.now()) / 1000) - 1,
    );
  }
  if (grant.scopes.includes('openid')) {
    body.id_token = await idTokens.forGrant(grant, access.token, nonce);
  }
  return body;
}

type GrantHandler = (
  body: unknown,
  client: OAuthClient,
  reply: FastifyReply,
) => Promise<FastifyReply>;

function authorizationCodeGrant(ctx: OidcContext, idTokens: IdTokens): GrantHandler {
  return async (body, client, reply) => {
    const code = param(body, 'code');
    if (!code) return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: code');
    const found = ctx.grants.lookupCode(code);
    if (!found) return oauthError(reply, 400, 'invalid_grant', 'Malformed auth code.');
    if ('reused' in found) return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
    const { request: authRequest, grant } = found;
    if (authRequest.clientId !== client.clientId) {
      return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
    }
    if (param(body, 'redirect_uri') !== authRequest.redirectUri) {
      return oauthError(reply, 400, 'redirect_uri_mismatch', 'Bad Request');
    }
    if (authRequest.codeChallenge) {
      const verifier = param(body, 'code_verifier');
      if (!verifier) return oauthError(reply, 400, 'invalid_grant', 'Missing code verifier.');
      const computed =
        authRequest.codeChallengeMethod === 'S256' ? base64UrlSha256(verifier) : verifier;
      if (!PKCE_VALUE.test(verifier) || !safeEqual(computed, authRequest.codeChallenge)) {
        return oauthError(reply, 400, 'invalid_grant', 'Invalid code verifier.');
      }
    }
    ctx.grants.markRedeemed(code);
    return reply
      .header('Cache-Control', 'no-store')
      .send(await tokenResponse(ctx, idTokens, grant, grant.nonce, true));
  };
}

function refreshTokenGrant(ctx: OidcContext, idTokens: IdTokens): GrantHandler {
  return async (body, client, reply) => {
    const refreshToken = param(body, 'refresh_token');
    if (!refreshToken) {
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: refresh_token');
    }
    const found = ctx.grants.refresh(refreshToken);
    if ('refused' in found && found.refused === 'unknown') {
      return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
    }
    if ('refused' in found || found.grant.clientId !== client.clientId) {
      return oauthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
    }
    // Google keeps the refresh token: the response carries none.
    return reply
      .header('Cache-Control', 'no-store')
      .send(await tokenResponse(ctx, idTokens, found.grant, null, false));
  };
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The token endpoint: authorization code and refresh token grants for OAuth clients, and the
 * JWT-bearer grant for service accounts, whose signed assertion stands in for client credentials.
 */
export function registerToken(app: FastifyInstance, ctx: OidcContext, idTokens: IdTokens) {
  const grantTypes = new Map<string, GrantHandler>([
    ['authorization_code', authorizationCodeGrant(ctx, idTokens)],
    ['refresh_token', refreshTokenGrant(ctx, idTokens)],
  ]);
  app.post('/token', async (request, reply) => {
    reply.header('Pragma', 'no-cache');
    if (param(request.body, 'grant_type') === JWT_BEARER && ctx.jwtBearer) {
      const result = await ctx.jwtBearer(param(request.body, 'assertion'), `${ctx.issuer()}/token`);
      if (!result.ok) return oauthError(reply, result.status, result.error, result.description);
      return reply.header('Cache-Control', 'no-store').send(result.body);
    }
    const auth = authenticateClient(ctx, request);
    if (!('client' in auth)) return oauthError(reply, auth.status, auth.error, auth.description);
    const grantType = param(request.body, 'grant_type');
    const handler = grantType ? grantTypes.get(grantType) : undefined;
    if (handler) return handler(request.body, auth.client, reply);
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      `Invalid grant_type: ${grantType ?? ''}`,
    );
  });
}
