import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { accountFor, isPlausibleEmail, SIMULATED_ACCOUNTS } from './accounts.js';
import { renderAuthError, renderChooseAccount } from './authorize-page.js';
import type { Clock } from './health/clock.js';
import { formTargetFor, PAGE_CSP, pageCsp } from './html.js';
import {
  ACCESS_TOKEN_SECONDS,
  type AuthorizationRequest,
  type Grant,
  GrantStore,
} from './oidc-grants.js';
import { createForeignKey, loadOrCreateSigningKey, type SigningKey } from './oidc-keys.js';
import {
  EMAIL_SCOPE,
  HEALTH_SCOPE_PREFIX,
  PROFILE_SCOPE,
  parseScopes,
  SUPPORTED_SCOPES,
} from './oidc-scopes.js';

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /**
   * The client's "Authorized redirect URIs": when given, redirect_uri must equal one of them
   * exactly. Without a list any http loopback URI is accepted (local runs pick their own ports).
   */
  redirectUris?: string[];
}

export interface OidcOptions {
  /** Read at request time: the public URL is only known once the HTTP port is bound. */
  issuer: () => string;
  clients: OAuthClient[];
  dataDir?: string;
  /** Shared with the Health API so tests can pass hours and days. Default: real time. */
  clock?: Clock;
  /** Read per consent: the client's publishing status is "Testing" (7-day refresh tokens). */
  testingMode?: () => boolean;
}

/** Testing-mode clients: refresh tokens of grants with restricted scopes die 7 days after consent. */
export const TESTING_REFRESH_TOKEN_MS = 7 * 86_400_000;

export interface MintOptions {
  expiresInSeconds?: number;
  signWith?: 'issuer' | 'foreign';
}

/** A fault for the next ID token the token endpoint issues (tests of the client's checks). */
export interface IdTokenTamper extends MintOptions {
  /** Claims that replace or add to the real ones, e.g. `{ aud: 'someone-else' }`, `{ nonce: 'x' }`. */
  claims?: Record<string, unknown>;
  /** Flip a character of the signature. */
  corruptSignature?: boolean;
}

export interface OidcIssuer {
  grants: GrantStore;
  mintIdToken(claims: Record<string, unknown>, options?: MintOptions): Promise<string>;
  tamperNextIdToken(tamper: IdTokenTamper): void;
}

export const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
const ID_TOKEN_SECONDS = 3600;
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

type Params = Record<string, unknown>;

function param(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Params)[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function params(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const value = (source as Params)[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a === b;
}

/** The sandbox accepts any loopback http redirect, which is what local runs and tests use. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

function withParams(base: string, values: Record<string, string | null | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(values)) {
    if (value !== null && value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

interface AuthErrorView {
  status: number;
  code: string;
  description: string;
}

function sendHtml(reply: FastifyReply, status: number, html: string, redirectUri?: string) {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header(
      'Content-Security-Policy',
      redirectUri ? pageCsp([formTargetFor(redirectUri)]) : PAGE_CSP,
    )
    .header('Cache-Control', 'no-store')
    .send(html);
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error, error_description: description });
}

function base64UrlSha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Google-like OpenID Connect issuer and OAuth 2.0 authorization server. */
export async function registerOidc(
  app: FastifyInstance,
  options: OidcOptions,
): Promise<OidcIssuer> {
  const signingKey = await loadOrCreateSigningKey(options.dataDir);
  let foreignKey: SigningKey | undefined;
  let pendingTamper: IdTokenTamper | undefined;
  const corrupt = (jwt: string) => {
    const last = jwt.at(-2) === 'A' ? 'B' : 'A';
    return `${jwt.slice(0, -2)}${last}${jwt.slice(-1)}`;
  };
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const testingMode = options.testingMode ?? (() => false);
  const grants = new GrantStore(options.dataDir, clock);
  const clients = options.clients;
  const issuer = options.issuer;

  const findClient = (clientId: string) => clients.find((c) => c.clientId === clientId);

  async function sign(
    claims: Record<string, unknown>,
    key: SigningKey,
    kid: string,
    expiresInSeconds: number,
  ): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ iat, exp: iat + expiresInSeconds, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .sign(key.privateKey);
  }

  function idTokenClaims(grant: Grant, accessToken: string, nonce: string | null) {
    const { account } = grant;
    const claims: Record<string, unknown> = {
      iss: issuer(),
      azp: grant.clientId,
      aud: grant.clientId,
      sub: account.sub,
    };
    // Like Google: e-mail claims need the email scope, name and picture the profile scope.
    if (grant.scopes.includes(EMAIL_SCOPE)) {
      claims.email = account.email;
      claims.email_verified = true;
    }
    // at_hash: left half of the SHA-256 of the access token (OIDC Core §3.1.3.6).
    const digest = createHash('sha256').update(accessToken).digest();
    claims.at_hash = digest.subarray(0, digest.length / 2).toString('base64url');
    if (nonce) claims.nonce = nonce;
    if (grant.scopes.includes(PROFILE_SCOPE)) {
      claims.name = account.name;
      if (account.picture) claims.picture = account.picture;
      claims.given_name = account.givenName;
      if (account.familyName) claims.family_name = account.familyName;
    }
    return claims;
  }

  async function tokenResponse(grant: Grant, nonce: string | null, includeRefresh: boolean) {
    const access = grants.issueAccessToken(grant);
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
        Math.ceil((grant.refreshExpiresAt - clock.now()) / 1000) - 1,
      );
    }
    if (grant.scopes.includes('openid')) {
      const tamper = pendingTamper;
      pendingTamper = undefined;
      if (tamper?.signWith === 'foreign' && !foreignKey) foreignKey = await createForeignKey();
      const token = await sign(
        { ...idTokenClaims(grant, access.token, nonce), ...tamper?.claims },
        tamper?.signWith === 'foreign' && foreignKey ? foreignKey : signingKey,
        signingKey.kid,
        tamper?.expiresInSeconds ?? ID_TOKEN_SECONDS,
      );
      body.id_token = tamper?.corruptSignature ? corrupt(token) : token;
    }
    return body;
  }

  // ---- Discovery and keys -------------------------------------------------------------------

  app.get('/.well-known/openid-configuration', async (_request, reply) => {
    const base = issuer();
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
      grant_types_supported: ['authorization_code', 'refresh_token'],
      // Not in Google's document; lets a developer see what the sandbox accepts.
      sandbox_supported_scopes: SUPPORTED_SCOPES,
    };
  });

  app.get('/oauth2/v3/certs', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=3600');
    return { keys: [signingKey.publicJwk] };
  });

  // ---- Authorization endpoint ---------------------------------------------------------------

  function validateAuthorization(
    source: unknown,
  ): { request: AuthorizationRequest } | { page: AuthErrorView } | { redirect: string } {
    const clientId = param(source, 'client_id');
    if (!clientId) {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: 'Missing required parameter: client_id',
        },
      };
    }
    const client = findClient(clientId);
    if (!client) {
      return {
        page: {
          status: 401,
          code: 'invalid_client',
          description: 'The OAuth client was not found.',
        },
      };
    }
    const redirectUri = param(source, 'redirect_uri');
    if (!redirectUri) {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: 'Missing required parameter: redirect_uri',
        },
      };
    }
    if (
      client.redirectUris
        ? !client.redirectUris.includes(redirectUri)
        : !isAllowedRedirectUri(redirectUri)
    ) {
      return {
        page: {
          status: 400,
          code: 'redirect_uri_mismatch',
          description: `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. redirect_uri=${redirectUri}`,
        },
      };
    }
    const state = param(source, 'state') ?? null;
    const responseType = param(source, 'response_type');
    if (!responseType) {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: 'Required parameter is missing: response_type',
        },
      };
    }
    if (responseType !== 'code') {
      return {
        page: {
          status: 400,
          code: 'unsupported_response_type',
          description: `Invalid response_type: ${responseType}. The sandbox supports the authorization code flow only.`,
        },
      };
    }
    const rawScope = param(source, 'scope');
    if (!rawScope?.trim()) {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: 'Missing required parameter: scope',
        },
      };
    }
    const { scopes, invalid } = parseScopes(rawScope);
    if (invalid.length > 0) {
      return {
        page: {
          status: 400,
          code: 'invalid_scope',
          description: `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`,
        },
      };
    }
    const codeChallenge = param(source, 'code_challenge') ?? null;
    const method = param(source, 'code_challenge_method');
    if (codeChallenge !== null && !PKCE_VALUE.test(codeChallenge)) {
      return {
        page: { status: 400, code: 'invalid_request', description: 'Invalid code_challenge.' },
      };
    }
    if (method !== undefined && method !== 'S256' && method !== 'plain') {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: `Invalid code_challenge_method: ${method}`,
        },
      };
    }
    if (method !== undefined && codeChallenge === null) {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: 'Missing required parameter: code_challenge',
        },
      };
    }
    const accessType = param(source, 'access_type') ?? 'online';
    if (accessType !== 'online' && accessType !== 'offline') {
      return {
        page: {
          status: 400,
          code: 'invalid_request',
          description: `Invalid access_type: ${accessType}`,
        },
      };
    }
    const prompt = (param(source, 'prompt') ?? '').split(/\s+/).filter(Boolean);
    if (prompt.includes('none')) {
      // The sandbox keeps no browser session, so silent authentication can never succeed.
      return { redirect: withParams(redirectUri, { error: 'interaction_required', state }) };
    }
    return {
      request: {
        clientId,
        redirectUri,
        scopes,
        state,
        nonce: param(source, 'nonce') ?? null,
        codeChallenge,
        codeChallengeMethod: codeChallenge === null ? null : method === 'S256' ? 'S256' : 'plain',
        accessType,
        prompt,
        loginHint: param(source, 'login_hint') ?? null,
        includeGrantedScopes: param(source, 'include_granted_scopes') === 'true',
      },
    };
  }

  async function authorize(request: FastifyRequest, reply: FastifyReply) {
    const source = request.method === 'POST' ? request.body : request.query;
    const result = validateAuthorization(source);
    if ('page' in result) return sendHtml(reply, result.page.status, renderAuthError(result.page));
    if ('redirect' in result) return reply.redirect(result.redirect, 302);
    const requestId = grants.savePending(result.request);
    return sendHtml(
      reply,
      200,
      renderChooseAccount({
        requestId,
        clientId: result.request.clientId,
        scopes: result.request.scopes,
        accounts: SIMULATED_ACCOUNTS,
        loginHint: result.request.loginHint,
      }),
      result.request.redirectUri,
    );
  }

  // OIDC Core §3.1.2.1: the authorization endpoint must accept GET and POST.
  app.get(AUTHORIZE_PATH, authorize);
  app.post(AUTHORIZE_PATH, authorize);

  app.post(`${AUTHORIZE_PATH}/choose`, async (request, reply) => {
    const body = request.body;
    const requestId = param(body, 'request') ?? '';
    const pending = grants.takePending(requestId);
    if (!pending) {
      return sendHtml(
        reply,
        400,
        renderAuthError({
          status: 400,
          code: 'invalid_request',
          description:
            'This sign-in request has expired or was already used. Start again from the app.',
        }),
      );
    }
    const choice = param(body, 'account') ?? '';
    if (choice === 'cancel') {
      return reply.redirect(
        withParams(pending.redirectUri, { error: 'access_denied', state: pending.state }),
        302,
      );
    }
    let account = SIMULATED_ACCOUNTS.find((a) => a.email === choice);
    if (!account) {
      const email = (param(body, 'email') ?? '').trim();
      const name = (param(body, 'name') ?? '').trim();
      if (choice !== 'custom' || !isPlausibleEmail(email) || name.length > 100) {
        // Show the form again, bound to a fresh pending request since the old one was consumed.
        return sendHtml(
          reply,
          400,
          renderChooseAccount({
            requestId: grants.savePending(pending),
            clientId: pending.clientId,
            scopes: pending.scopes,
            accounts: SIMULATED_ACCOUNTS,
            loginHint: pending.loginHint,
            error: 'Enter a valid email address, or choose one of the accounts above.',
            customEmail: email,
            customName: name,
          }),
          pending.redirectUri,
        );
      }
      account = accountFor(email, name || undefined);
    }
    const ticked = new Set(params(body, 'granted_scope'));
    const thisTime = pending.scopes.filter(
      (s) => s === 'openid' || s === EMAIL_SCOPE || s === PROFILE_SCOPE || ticked.has(s),
    );
    // Like Google: without include_granted_scopes the grant holds only what was ticked this time
    // (an unticked scope is not added back); with it, every scope granted earlier is added back.
    const granted = pending.includeGrantedScopes
      ? [
          ...thisTime,
          ...grants.liveScopes(pending.clientId, account.sub).filter((s) => !thisTime.includes(s)),
        ]
      : thisTime;
    // Google issues a refresh token on first consent, and again only when consent is forced.
    const withRefresh =
      pending.accessType === 'offline' &&
      (pending.prompt.includes('consent') ||
        !grants.hasRefreshableGrant(pending.clientId, account.sub));
    // Google's Testing status limits refresh tokens to 7 days unless only sign-in scopes are granted.
    const restricted = granted.some((s) => s.startsWith(HEALTH_SCOPE_PREFIX));
    const code = grants.createGrantAndCode(
      pending,
      account,
      granted,
      withRefresh,
      testingMode() && restricted ? TESTING_REFRESH_TOKEN_MS : null,
    );
    return reply.redirect(
      withParams(pending.redirectUri, {
        state: pending.state,
        code,
        scope: granted.join(' '),
        authuser: '0',
        prompt: 'consent',
      }),
      302,
    );
  });

  // ---- Token endpoint -----------------------------------------------------------------------

  function authenticateClient(
    request: FastifyRequest,
  ): { client: OAuthClient } | { status: number; error: string; description: string } {
    let clientId = param(request.body, 'client_id');
    let clientSecret = param(request.body, 'client_secret');
    const header = request.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return { status: 401, error: 'invalid_client', description: 'Unauthorized' };
      // RFC 6749 §2.3.1: both halves are form-urlencoded before being joined.
      const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
      try {
        clientId = decode(decoded.slice(0, colon));
        clientSecret = decode(decoded.slice(colon + 1));
      } catch {
        return { status: 401, error: 'invalid_client', description: 'Unauthorized' };
      }
    }
    if (!clientId) {
      return {
        status: 400,
        error: 'invalid_request',
        description: 'Could not determine client ID from request.',
      };
    }
    const client = findClient(clientId);
    if (!client)
      return {
        status: 401,
        error: 'invalid_client',
        description: 'The OAuth client was not found.',
      };
    if (!clientSecret || !safeEqual(clientSecret, client.clientSecret)) {
      return { status: 401, error: 'invalid_client', description: 'Unauthorized' };
    }
    return { client };
  }

  app.post('/token', async (request, reply) => {
    reply.header('Pragma', 'no-cache');
    const auth = authenticateClient(request);
    if (!('client' in auth)) return oauthError(reply, auth.status, auth.error, auth.description);
    const { client } = auth;
    const body = request.body;
    const grantType = param(body, 'grant_type');

    if (grantType === 'authorization_code') {
      const code = param(body, 'code');
      if (!code)
        return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: code');
      const found = grants.lookupCode(code);
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
      grants.markRedeemed(code);
      return reply
        .header('Cache-Control', 'no-store')
        .send(await tokenResponse(grant, grant.nonce, true));
    }

    if (grantType === 'refresh_token') {
      const refreshToken = param(body, 'refresh_token');
      if (!refreshToken) {
        return oauthError(
          reply,
          400,
          'invalid_request',
          'Missing required parameter: refresh_token',
        );
      }
      const found = grants.refresh(refreshToken);
      if ('refused' in found && found.refused === 'unknown') {
        return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
      }
      if ('refused' in found || found.grant.clientId !== client.clientId) {
        return oauthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
      }
      const { grant } = found;
      // Google keeps the refresh token: the response carries none.
      return reply
        .header('Cache-Control', 'no-store')
        .send(await tokenResponse(grant, null, false));
    }

    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      `Invalid grant_type: ${grantType ?? ''}`,
    );
  });

  // ---- Userinfo, tokeninfo, revocation ------------------------------------------------------

  function bearer(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
    return param(request.query, 'access_token');
  }

  async function userinfo(request: FastifyRequest, reply: FastifyReply) {
    const token = bearer(request);
    const found = token ? grants.lookupAccessToken(token) : null;
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
  }

  app.get('/v1/userinfo', userinfo);
  app.post('/v1/userinfo', userinfo);
  app.get('/oauth2/v3/userinfo', userinfo);

  app.get('/tokeninfo', async (request, reply) => {
    const token = param(request.query, 'access_token');
    const found = token ? grants.lookupAccessToken(token) : null;
    if (!found) return oauthError(reply, 400, 'invalid_token', 'Invalid Value');
    const { grant } = found;
    const info: Record<string, string> = {
      azp: grant.clientId,
      aud: grant.clientId,
      sub: grant.account.sub,
      scope: grant.scopes.join(' '),
      exp: String(Math.floor(found.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((found.expiresAt - clock.now()) / 1000))),
      access_type: grant.refreshToken ? 'offline' : 'online',
    };
    if (grant.scopes.includes(EMAIL_SCOPE)) {
      info.email = grant.account.email;
      info.email_verified = 'true';
    }
    return info;
  });

  async function revoke(request: FastifyRequest, reply: FastifyReply) {
    const token = param(request.body, 'token') ?? param(request.query, 'token');
    if (!token)
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: token');
    if (!grants.revokeToken(token))
      return oauthError(reply, 400, 'invalid_token', 'Token expired or revoked');
    return reply.code(200).header('Cache-Control', 'no-store').send();
  }

  app.post('/revoke', revoke);
  app.get('/revoke', revoke);

  return {
    grants,
    tamperNextIdToken(tamper) {
      pendingTamper = tamper;
    },
    async mintIdToken(claims, mintOptions = {}) {
      if (mintOptions.signWith === 'foreign' && !foreignKey) foreignKey = await createForeignKey();
      const key = mintOptions.signWith === 'foreign' && foreignKey ? foreignKey : signingKey;
      const defaultClient = clients[0]?.clientId;
      // A forged token claims the issuer's kid, so verification fails on the signature itself.
      return sign(
        {
          iss: issuer(),
          ...(defaultClient ? { aud: defaultClient, azp: defaultClient } : {}),
          ...claims,
        },
        key,
        signingKey.kid,
        mintOptions.expiresInSeconds ?? ID_TOKEN_SECONDS,
      );
    },
  };
}
