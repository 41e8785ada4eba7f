import type { Sandbox } from '../index.js';
import {
  authorizeUrl,
  choose,
  codeExchange,
  openAuthorizePage,
  pkcePair,
  postToken,
} from './oidc-flow.js';

export const HEALTH = 'https://www.googleapis.com/auth/googlehealth.';
export const ACTIVITY = `${HEALTH}activity_and_fitness.readonly`;
export const METRICS = `${HEALTH}health_metrics_and_measurements.readonly`;
export const SLEEP = `${HEALTH}sleep.readonly`;
export const PROFILE = `${HEALTH}profile.readonly`;
export const SETTINGS = `${HEALTH}settings.readonly`;
/** The minimum read set for the 12 research types. */
export const RESEARCH_SCOPES = [ACTIVITY, METRICS, SLEEP, PROFILE, SETTINGS];

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  refresh_token_expires_in?: number;
  scope: string;
  token_type: string;
}

/** The whole browser round trip for health scopes with PKCE: returns the token response. */
export async function connect(
  sandbox: Sandbox,
  email: string,
  options: { scopes?: string[]; granted?: string[] } = {},
): Promise<Tokens> {
  const scopes = options.scopes ?? RESEARCH_SCOPES;
  const { verifier, challenge } = pkcePair();
  const { requestId } = await openAuthorizePage(
    authorizeUrl(sandbox.health.urls.authorizationUrl, {
      scope: scopes.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  );
  const result = await choose(sandbox.issuer, {
    request: requestId,
    account: 'custom',
    email,
    granted_scope: options.granted ?? scopes,
  });
  const code = result.location?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${result.status} ${result.location}`);
  const token = await postToken(
    sandbox.health.urls.tokenUrl,
    codeExchange(code, { code_verifier: verifier }),
  );
  if (token.status !== 200) throw new Error(`token exchange: ${JSON.stringify(token.json)}`);
  return token.json as unknown as Tokens;
}

/** A GET or POST against the Health API with a bearer token. */
export async function api(
  sandbox: Sandbox,
  token: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${sandbox.health.urls.apiBaseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
  };
}
