import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountFor, isPlausibleEmail, SIMULATED_ACCOUNTS } from './accounts.js';
import { renderAuthError, renderChooseAccount } from './authorize-page.js';
import { findClient, type OidcContext } from './oidc-context.js';
import type { AuthorizationRequest } from './oidc-grants.js';
import {
  AUTHORIZE_PATH,
  isAllowedRedirectUri,
  PKCE_VALUE,
  param,
  params,
  sendHtml,
  withParams,
} from './oidc-http.js';
import { EMAIL_SCOPE, HEALTH_SCOPE_PREFIX, PROFILE_SCOPE, parseScopes } from './oidc-scopes.js';

/** Testing-mode clients: refresh tokens of grants with restricted scopes die 7 days after consent. */
export const TESTING_REFRESH_TOKEN_MS = 7 * 86_400_000;

interface AuthErrorView {
  status: number;
  code: string;
  description: string;
}

type Refused = { page: AuthErrorView };

const refuse = (status: number, code: string, description: string): Refused => ({
  page: { status, code, description },
});

const missing = (name: string) =>
  refuse(400, 'invalid_request', `Missing required parameter: ${name}`);

/** The client and where to send the answer; errors here cannot be redirected, only shown. */
function validateClient(
  ctx: OidcContext,
  source: unknown,
): Refused | { clientId: string; redirectUri: string } {
  const clientId = param(source, 'client_id');
  if (!clientId) return missing('client_id');
  const client = findClient(ctx, clientId);
  if (!client) return refuse(401, 'invalid_client', 'The OAuth client was not found.');
  const redirectUri = param(source, 'redirect_uri');
  if (!redirectUri) return missing('redirect_uri');
  if (
    client.redirectUris
      ? !client.redirectUris.includes(redirectUri)
      : !isAllowedRedirectUri(redirectUri)
  ) {
    return refuse(
      400,
      'redirect_uri_mismatch',
      `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. redirect_uri=${redirectUri}`,
    );
  }
  return { clientId, redirectUri };
}

/** The response type (code only) and the scopes asked for. */
function validateScopes(source: unknown): Refused | { scopes: string[] } {
  const responseType = param(source, 'response_type');
  if (!responseType) {
    return refuse(400, 'invalid_request', 'Required parameter is missing: response_type');
  }
  if (responseType !== 'code') {
    return refuse(
      400,
      'unsupported_response_type',
      `Invalid response_type: ${responseType}. The sandbox supports the authorization code flow only.`,
    );
  }
  const rawScope = param(source, 'scope');
  if (!rawScope?.trim()) return missing('scope');
  const { scopes, invalid } = parseScopes(rawScope);
  if (invalid.length > 0) {
    return refuse(
      400,
      'invalid_scope',
      `Some requested scopes were invalid. {invalid=[${invalid.join(', ')}]}`,
    );
  }
  return { scopes };
}

function validatePkce(
  source: unknown,
): Refused | Pick<AuthorizationRequest, 'codeChallenge' | 'codeChallengeMethod'> {
  const codeChallenge = param(source, 'code_challenge') ?? null;
  const method = param(source, 'code_challenge_method');
  if (codeChallenge !== null && !PKCE_VALUE.test(codeChallenge)) {
    return refuse(400, 'invalid_request', 'Invalid code_challenge.');
  }
  if (method !== undefined && method !== 'S256' && method !== 'plain') {
    return refuse(400, 'invalid_request', `Invalid code_challenge_method: ${method}`);
  }
  if (method !== undefined && codeChallenge === null) return missing('code_challenge');
  return {
    codeChallenge,
    codeChallengeMethod: codeChallenge === null ? null : method === 'S256' ? 'S256' : 'plain',
  };
}

function validateAuthorization(
  ctx: OidcContext,
  source: unknown,
): { request: AuthorizationRequest } | Refused | { redirect: string } {
  const client = validateClient(ctx, source);
  if ('page' in client) return client;
  const state = param(source, 'state') ?? null;
  const scoped = validateScopes(source);
  if ('page' in scoped) return scoped;
  const pkce = validatePkce(source);
  if ('page' in pkce) return pkce;
  const accessType = param(source, 'access_type') ?? 'online';
  if (accessType !== 'online' && accessType !== 'offline') {
    return refuse(400, 'invalid_request', `Invalid access_type: ${accessType}`);
  }
  const prompt = (param(source, 'prompt') ?? '').split(/\s+/).filter(Boolean);
  if (prompt.includes('none')) {
    // The sandbox keeps no browser session, so silent authentication can never succeed.
    return { redirect: withParams(client.redirectUri, { error: 'interaction_required', state }) };
  }
  return {
    request: {
      ...client,
      scopes: scoped.scopes,
      state,
      nonce: param(source, 'nonce') ?? null,
      ...pkce,
      accessType,
      prompt,
      loginHint: param(source, 'login_hint') ?? null,
      includeGrantedScopes: param(source, 'include_granted_scopes') === 'true',
    },
  };
}

/** The account page, for a valid request; errors as Google shows them. */
function authorize(ctx: OidcContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const source = request.method === 'POST' ? request.body : request.query;
    const result = validateAuthorization(ctx, source);
    if ('page' in result) return sendHtml(reply, result.page.status, renderAuthError(result.page));
    if ('redirect' in result) return reply.redirect(result.redirect, 302);
    const requestId = ctx.grants.savePending(result.request);
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
  };
}

/** The scopes of the new grant and whether it gets a refresh token, as Google decides them. */
function grantOf(
  ctx: OidcContext,
  pending: AuthorizationRequest,
  sub: string,
  ticked: Set<string>,
) {
  const thisTime = pending.scopes.filter(
    (s) => s === 'openid' || s === EMAIL_SCOPE || s === PROFILE_SCOPE || ticked.has(s),
  );
  // Like Google: without include_granted_scopes the grant holds only what was ticked this time
  // (an unticked scope is not added back); with it, every scope granted earlier is added back.
  const granted = pending.includeGrantedScopes
    ? [
        ...thisTime,
        ...ctx.grants.liveScopes(pending.clientId, sub).filter((s) => !thisTime.includes(s)),
      ]
    : thisTime;
  // Google issues a refresh token on first consent, and again only when consent is forced.
  const withRefresh =
    pending.accessType === 'offline' &&
    (pending.prompt.includes('consent') || !ctx.grants.hasRefreshableGrant(pending.clientId, sub));
  // Google's Testing status limits refresh tokens to 7 days unless only sign-in scopes are granted.
  const restricted = granted.some((s) => s.startsWith(HEALTH_SCOPE_PREFIX));
  const refreshLifetime = ctx.testingMode() && restricted ? TESTING_REFRESH_TOKEN_MS : null;
  return { granted, withRefresh, refreshLifetime };
}

/** The account chosen on the page (a listed one or a custom e-mail), or the form shown again. */
function chosenAccount(
  reply: FastifyReply,
  ctx: OidcContext,
  pending: AuthorizationRequest,
  body: unknown,
) {
  const choice = param(body, 'account') ?? '';
  const listed = SIMULATED_ACCOUNTS.find((a) => a.email === choice);
  if (listed) return { account: listed };
  const email = (param(body, 'email') ?? '').trim();
  const name = (param(body, 'name') ?? '').trim();
  if (choice === 'custom' && isPlausibleEmail(email) && name.length <= 100) {
    return { account: accountFor(email, name || undefined) };
  }
  // Show the form again, bound to a fresh pending request since the old one was consumed.
  return {
    answer: sendHtml(
      reply,
      400,
      renderChooseAccount({
        requestId: ctx.grants.savePending(pending),
        clientId: pending.clientId,
        scopes: pending.scopes,
        accounts: SIMULATED_ACCOUNTS,
        loginHint: pending.loginHint,
        error: 'Enter a valid email address, or choose one of the accounts above.',
        customEmail: email,
        customName: name,
      }),
      pending.redirectUri,
    ),
  };
}

/** The form post of the account page: consent given (or cancelled), back to the client. */
function choose(ctx: OidcContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body;
    const pending = ctx.grants.takePending(param(body, 'request') ?? '');
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
    if (param(body, 'account') === 'cancel') {
      return reply.redirect(
        withParams(pending.redirectUri, { error: 'access_denied', state: pending.state }),
        302,
      );
    }
    const chosen = chosenAccount(reply, ctx, pending, body);
    if ('answer' in chosen) return chosen.answer;
    const { account } = chosen;
    const { granted, withRefresh, refreshLifetime } = grantOf(
      ctx,
      pending,
      account.sub,
      new Set(params(body, 'granted_scope')),
    );
    const code = ctx.grants.createGrantAndCode(
      pending,
      account,
      granted,
      withRefresh,
      refreshLifetime,
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
  };
}

/** The authorization endpoint and its account page. */
export function registerAuthorize(app: FastifyInstance, ctx: OidcContext) {
  const handler = authorize(ctx);
  // OIDC Core §3.1.2.1: the authorization endpoint must accept GET and POST.
  app.get(AUTHORIZE_PATH, handler);
  app.post(AUTHORIZE_PATH, handler);
  app.post(`${AUTHORIZE_PATH}/choose`, choose(ctx));
}
