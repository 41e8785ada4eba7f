import { createHash, randomBytes } from 'node:crypto';
import { SANDBOX_DEFAULTS } from '../index.js';

export const CLIENT_ID = SANDBOX_DEFAULTS.googleClientId;
export const CLIENT_SECRET = SANDBOX_DEFAULTS.googleClientSecret;
export const REDIRECT_URI = 'http://localhost:5173/auth/google/callback';

/**
 * The token request that redeems an authorization code as the registered web client (its
 * redirect URI and secret in the body); `extra` adds fields or overrides one.
 */
export const codeExchange = (code: string, extra: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: REDIRECT_URI,
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  ...extra,
});

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  authorizationEndpoint: string,
  params: Record<string, string>,
): string {
  const url = new URL(authorizationEndpoint);
  const defaults = {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email profile',
  };
  for (const [key, value] of Object.entries({ ...defaults, ...params })) {
    url.searchParams.set(key, value);
  }
  return url.toString();
}

/** Opens the authorize page and returns the hidden request id of its form. */
export async function openAuthorizePage(url: string): Promise<{ html: string; requestId: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`authorize page answered ${response.status}`);
  const match = /name="request" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('authorize page has no request id');
  return { html, requestId: match[1] };
}

/** Submits the account chooser the way the browser form does; returns the redirect target. */
export async function choose(
  baseUrl: string,
  fields: Record<string, string | string[]>,
): Promise<{ status: number; location: URL | null; body: string }> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
  }
  const response = await fetch(`${baseUrl}/o/oauth2/v2/auth/choose`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location ? new URL(location) : null,
    body: await response.text(),
  };
}

export async function postToken(
  tokenEndpoint: string,
  fields: Record<string, string>,
  basicAuth?: { id: string; secret: string },
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (basicAuth) {
    const encode = (v: string) => encodeURIComponent(v);
    headers.authorization = `Basic ${Buffer.from(`${encode(basicAuth.id)}:${encode(basicAuth.secret)}`).toString('base64')}`;
  }
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}
