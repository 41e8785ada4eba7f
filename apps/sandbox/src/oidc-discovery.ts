import type { FastifyInstance } from 'fastify';
import type { OidcContext } from './oidc-context.js';
import { AUTHORIZE_PATH } from './oidc-http.js';
import type { SigningKey } from './oidc-keys.js';
import { SUPPORTED_SCOPES } from './oidc-scopes.js';

/** The discovery document and the signing keys, shaped like Google's. */
export function registerDiscovery(app: FastifyInstance, ctx: OidcContext, signingKey: SigningKey) {
  app.get('/.well-known/openid-configuration', async (_request, reply) => {
    const base = ctx.issuer();
    reply.header('Cache-Control', 'public, max-age=3600');
    return {
      issuer: base,
      authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
      token_endpoint: `${base}/token`,
      userinfo_endpoint: `${base}/v1/userinfo`,
      revocation_endpoint: `${base}/revoke`,
      jwks_uri: `${base}/oauth2/v3/certs`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      claims_supported: [
        'aud',
        'email',
        'email_verified',
        'exp',
        'family_name',
        'given_name',
        'iat',
        'iss',
        'name',
        'picture',
        'sub',
      ],
      code_challenge_methods_supported: ['S256', 'plain'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
      // Not in Google's document; lets a developer see what the sandbox accepts.
      sandbox_supported_scopes: SUPPORTED_SCOPES,
    };
  });

  app.get('/oauth2/v3/certs', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=3600');
    return { keys: [signingKey.publicJwk] };
  });
}
