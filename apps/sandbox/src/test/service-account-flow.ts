import { importPKCS8, SignJWT } from 'jose';
import type { Sandbox, ServiceAccountKeyFile } from '../index.js';

export const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/** The service-account key file, downloaded the way a developer would. */
export async function downloadKeyFile(sandbox: Sandbox): Promise<ServiceAccountKeyFile> {
  const response = await fetch(`${sandbox.httpUrl}/__admin/health/service-account.json`);
  if (response.status !== 200) throw new Error(`key file: ${response.status}`);
  return (await response.json()) as ServiceAccountKeyFile;
}

/** A signed JWT-bearer assertion, as a client library builds it from the key file. */
export async function assertion(
  key: ServiceAccountKeyFile,
  claims: { scope?: string; aud?: string; iat?: number; exp?: number; iss?: string } = {},
  signingKey = key.private_key,
): Promise<string> {
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: claims.scope ?? CLOUD_PLATFORM })
    .setProtectedHeader({ alg: 'RS256', kid: key.private_key_id })
    .setIssuer(claims.iss ?? key.client_email)
    .setAudience(claims.aud ?? key.token_uri)
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 3600)
    .sign(await importPKCS8(signingKey, 'RS256'));
}

export async function exchange(
  key: ServiceAccountKeyFile,
  signed: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(key.token_uri, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signed,
    }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** A cloud-platform access token of the project's service account. */
export async function serviceAccountToken(sandbox: Sandbox): Promise<string> {
  const key = await downloadKeyFile(sandbox);
  const { status, json } = await exchange(key, await assertion(key));
  if (status !== 200) throw new Error(`token: ${JSON.stringify(json)}`);
  return String(json.access_token);
}

/** A call of the subscribers API with a bearer token. */
export async function subscribersApi(
  sandbox: Sandbox,
  token: string | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.health.urls.apiBaseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}
