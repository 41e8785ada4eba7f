import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OidcContext } from './oidc-context.js';
import { oauthError, param } from './oidc-http.js';
import { EMAIL_SCOPE, PROFILE_SCOPE } from './oidc-scopes.js';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return param(request.query, 'access_token');
}

function userinfo(ctx: OidcContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(request);
    const found = token ? ctx.grants.lookupAccessToken(token) : null;
    if (!found) {
      reply.header(
        'WWW-Authenticate',
        'Bearer realm="https://accounts.google.com/", error="invalid_token"',
      );
      return oauthError(reply, 401, 'invalid_request', 'Invalid Credentials');
    }
    const { account, scopes } = found.grant;
    const info: Record<string, unknown> = { sub: account.sub };
    if (scopes.includes(PROFILE_SCOPE)) {
      info.name = account.name;
      info.given_name = account.givenName;
      if (account.familyName) info.family_name = account.familyName;
      if (account.picture) info.picture = account.picture;
    }
    if (scopes.includes(EMAIL_SCOPE)) {
      info.email = account.email;
      info.email_verified = true;
    }
    return reply.header('Cache-Control', 'no-store').send(info);
  };
}

function tokeninfo(ctx: OidcContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = param(request.query, 'access_token');
    const found = token ? ctx.grants.lookupAccessToken(token) : null;
    if (!found) return oauthError(reply, 400, 'invalid_token', 'Invalid Value');
    const { grant } = found;
    const info: Record<string, string> = {
      azp: grant.clientId,
      aud: grant.clientId,
      sub: grant.account.sub,
      scope: grant.scopes.join(' '),
      exp: String(Math.floor(found.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((found.expiresAt - ctx.clock.now()) / 1000))),
      access_type: grant.refreshToken ? 'offline' : 'online',
    };
    if (grant.scopes.includes(EMAIL_SCOPE)) {
      info.email = grant.account.email;
      info.email_verified = 'true';
    }
    return info;
  };
}

/** Like Google's: no client authentication, the token alone ends its whole grant. */
function revoke(ctx: OidcContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = param(request.body, 'token') ?? param(request.query, 'token');
    if (!token) {
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: token');
    }
    if (!ctx.grants.revokeToken(token)) {
      return oauthError(reply, 400, 'invalid_token', 'Token expired or revoked');
    }
    return reply.code(200).header('Cache-Control', 'no-store').send();
  };
}

/** Userinfo, tokeninfo and revocation: the endpoints that take a token already issued. */
export function registerTokenUse(app: FastifyInstance, ctx: OidcContext) {
  const info = userinfo(ctx);
  app.get('/v1/userinfo', info);
  app.post('/v1/userinfo', info);
  app.get('/oauth2/v3/userinfo', info);
  app.get('/tokeninfo', tokeninfo(ctx));
  const revocation = revoke(ctx);
  app.post('/revoke', revocation);
  app.get('/revoke', revocation);
}
