import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SIMULATED_ACCOUNTS, startSandbox, subjectFor } from './index.js';
import {
  authorizeUrl,
  CLIENT_ID,
  CLIENT_SECRET,
  choose,
  codeExchange,
  openAuthorizePage,
  pkcePair,
  postToken,
  REDIRECT_URI,
} from './test/oidc-flow.js';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  revocation_endpoint: string;
  response_types_supported: string[];
  code_challenge_methods_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

let sandbox: Sandbox;
let discovery: Discovery;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  const response = await fetch(`${sandbox.issuer}/.well-known/openid-configuration`);
  discovery = (await response.json()) as Discovery;
});

afterAll(async () => {
  await sandbox.close();
});

async function authorizeAs(
  email: string,
  params: Record<string, string>,
): Promise<{ code: string; state: string | null; scope: string | null }> {
  const { requestId } = await openAuthorizePage(
    authorizeUrl(discovery.authorization_endpoint, params),
  );
  const result = await choose(sandbox.issuer, { request: requestId, account: email });
  expect(result.status).toBe(302);
  const location = result.location;
  if (!location) throw new Error('no redirect');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.toString()}`);
  return {
    code,
    state: location.searchParams.get('state'),
    scope: location.searchParams.get('scope'),
  };
}

describe('discovery', () => {
  it('publishes Google-shaped endpoints under the issuer', () => {
    const base = sandbox.issuer;
    expect(base).toMatch(/^http:\/\/localhost:\d+$/);
    expect(discovery).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/o/oauth2/v2/auth`,
      token_endpoint: `${base}/token`,
      userinfo_endpoint: `${base}/v1/userinfo`,
      jwks_uri: `${base}/oauth2/v3/certs`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256', 'plain'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });
});

describe('authorization code flow with PKCE', () => {
  it('signs a person in end to end and refuses a reused code', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await openAuthorizePage(
      authorizeUrl(discovery.authorization_endpoint, {
        state: 'state-123',
        nonce: 'nonce-456',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        access_type: 'offline',
      }),
    );
    expect(page.html).toContain('<title>Sign in - Google Accounts (sandbox)</title>');
    expect(page.html).toContain('Choose an account');
    expect(page.html).toContain('Alex Rivera');
    expect(page.html).toContain('sam.chen@gmail.test');

    const chosen = await choose(sandbox.issuer, {
      request: page.requestId,
      account: 'alex.rivera@gmail.test',
    });
    expect(chosen.status).toBe(302);
    const code = chosen.location?.searchParams.get('code');
    expect(code).toBeTruthy();
    expect(chosen.location?.searchParams.get('state')).toBe('state-123');

    const exchange = codeExchange(code ?? '', { code_verifier: verifier });
    const token = await postToken(discovery.token_endpoint, exchange);
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({
      expires_in: 3599,
      token_type: 'Bearer',
      scope:
        'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
    });
    expect(typeof token.json.access_token).toBe('string');
    expect(typeof token.json.refresh_token).toBe('string');

    const idToken = String(token.json.id_token);
    const { kid } = decodeProtectedHeader(idToken);
    expect(kid).toBeTruthy();
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: discovery.issuer,
      audience: CLIENT_ID,
      algorithms: ['RS256'],
    });
    const alex = SIMULATED_ACCOUNTS[0];
    expect(payload).toMatchObject({
      iss: sandbox.issuer,
      aud: CLIENT_ID,
      azp: CLIENT_ID,
      sub: alex?.sub,
      email: 'alex.rivera@gmail.test',
      email_verified: true,
      name: 'Alex Rivera',
      given_name: 'Alex',
      family_name: 'Rivera',
      nonce: 'nonce-456',
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    const userinfo = await fetch(discovery.userinfo_endpoint, {
      headers: { authorization: `Bearer ${String(token.json.access_token)}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({
      sub: alex?.sub,
      name: 'Alex Rivera',
      given_name: 'Alex',
      family_name: 'Rivera',
      email: 'alex.rivera@gmail.test',
      email_verified: true,
    });

    const reuse = await postToken(discovery.token_endpoint, exchange);
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
    // Replaying the code revokes what it produced.
    const afterReplay = await fetch(discovery.userinfo_endpoint, {
      headers: { authorization: `Bearer ${String(token.json.access_token)}` },
    });
    expect(afterReplay.status).toBe(401);
  });

  it('refuses a wrong or missing code verifier, then accepts the right one', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeAs('sam.chen@gmail.test', {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const base = codeExchange(code);
    const wrong = await postToken(discovery.token_endpoint, {
      ...base,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Invalid code verifier.' },
    });
    const missing = await postToken(discovery.token_endpoint, base);
    expect(missing.json).toEqual({
      error: 'invalid_grant',
      error_description: 'Missing code verifier.',
    });
    const right = await postToken(discovery.token_endpoint, { ...base, code_verifier: verifier });
    expect(right.status).toBe(200);
  });

  it('checks the redirect_uri and the client at the token endpoint', async () => {
    const { code } = await authorizeAs('sam.chen@gmail.test', {});
    const badSecret = await postToken(
      discovery.token_endpoint,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      { id: CLIENT_ID, secret: 'nope' },
    );
    expect(badSecret.status).toBe(401);
    expect(badSecret.json.error).toBe('invalid_client');
    const badRedirect = await postToken(
      discovery.token_endpoint,
      { grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:1/other' },
      { id: CLIENT_ID, secret: CLIENT_SECRET },
    );
    expect(badRedirect.status).toBe(400);
    expect(badRedirect.json.error).toBe('redirect_uri_mismatch');
    // client_secret_basic works too.
    const ok = await postToken(
      discovery.token_endpoint,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      { id: CLIENT_ID, secret: CLIENT_SECRET },
    );
    expect(ok.status).toBe(200);
    // No access_type=offline: no refresh token.
    expect(ok.json.refresh_token).toBeUndefined();
  });

  it('refreshes and revokes tokens', async () => {
    const { code } = await authorizeAs('priya.patel@gmail.test', {
      access_type: 'offline',
      prompt: 'consent',
    });
    const first = await postToken(discovery.token_endpoint, codeExchange(code));
    const refreshToken = String(first.json.refresh_token);
    const refreshed = await postToken(discovery.token_endpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).toBeUndefined();
    expect(refreshed.json.access_token).not.toBe(first.json.access_token);
    expect(typeof refreshed.json.id_token).toBe('string');

    const revoke = await fetch(discovery.revocation_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ token: String(refreshed.json.access_token) }),
    });
    expect(revoke.status).toBe(200);
    const afterRevoke = await postToken(discovery.token_endpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
    expect(afterRevoke).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
    const again = await fetch(discovery.revocation_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ token: refreshToken }),
    });
    expect(again.status).toBe(400);
  });

  it('issues a refresh token again only when consent is forced, as Google does', async () => {
    const exchange = async (code: string) =>
      postToken(discovery.token_endpoint, codeExchange(code));
    const first = await exchange(
      (await authorizeAs('jordan.okafor@gmail.test', { access_type: 'offline' })).code,
    );
    expect(first.json.refresh_token).toBeTruthy();
    const second = await exchange(
      (await authorizeAs('jordan.okafor@gmail.test', { access_type: 'offline' })).code,
    );
    expect(second.json.refresh_token).toBeUndefined();
    const forced = await exchange(
      (await authorizeAs('jordan.okafor@gmail.test', { access_type: 'offline', prompt: 'consent' }))
        .code,
    );
    expect(forced.json.refresh_token).toBeTruthy();
  });

  it('grants only the data scopes left ticked, and accepts a typed account', async () => {
    const health = 'https://www.googleapis.com/auth/googlehealth.sleep.readonly';
    const steps = 'https://www.googleapis.com/auth/googlehealth.activity_and_fitness.readonly';
    const { requestId, html } = await openAuthorizePage(
      authorizeUrl(discovery.authorization_endpoint, { scope: `${health} ${steps}`, state: 's' }),
    );
    expect(html).toContain('See your sleep data in Google Health');
    const result = await choose(sandbox.issuer, {
      request: requestId,
      account: 'custom',
      email: 'Taylor.Kim@Example.test',
      name: 'Taylor Kim',
      granted_scope: [health],
    });
    expect(result.status).toBe(302);
    expect(result.location?.searchParams.get('scope')).toBe(health);
    const token = await postToken(
      discovery.token_endpoint,
      codeExchange(result.location?.searchParams.get('code') ?? ''),
    );
    expect(token.json.scope).toBe(health);
    // Without openid there is no ID token, as with Google.
    expect(token.json.id_token).toBeUndefined();
    const info = await fetch(
      `${sandbox.issuer}/tokeninfo?access_token=${encodeURIComponent(String(token.json.access_token))}`,
    );
    expect(await info.json()).toMatchObject({
      aud: CLIENT_ID,
      sub: subjectFor('taylor.kim@example.test'),
      scope: health,
    });
  });

  it('sends access_denied back when the person cancels', async () => {
    const { requestId } = await openAuthorizePage(
      authorizeUrl(discovery.authorization_endpoint, { state: 'xyz' }),
    );
    const result = await choose(sandbox.issuer, { request: requestId, account: 'cancel' });
    expect(result.status).toBe(302);
    expect(result.location?.searchParams.get('error')).toBe('access_denied');
    expect(result.location?.searchParams.get('state')).toBe('xyz');
    expect(result.location?.searchParams.get('code')).toBeNull();
  });

  it('renders an error page for an unknown client, a foreign redirect or a bad scope', async () => {
    const unknown = await fetch(
      authorizeUrl(discovery.authorization_endpoint, { client_id: 'someone-else' }),
      { redirect: 'manual' },
    );
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain('Error 401: invalid_client');

    const foreign = await fetch(
      authorizeUrl(discovery.authorization_endpoint, {
        redirect_uri: 'https://evil.example/cb?<script>',
      }),
      { redirect: 'manual' },
    );
    expect(foreign.status).toBe(400);
    const foreignHtml = await foreign.text();
    expect(foreignHtml).toContain('redirect_uri_mismatch');
    expect(foreignHtml).not.toContain('<script>');
    expect(foreign.headers.get('location')).toBeNull();

    const badScope = await fetch(
      authorizeUrl(discovery.authorization_endpoint, {
        scope: 'openid https://www.googleapis.com/auth/fitbit.activity',
      }),
      { redirect: 'manual' },
    );
    expect(badScope.status).toBe(400);
    expect(await badScope.text()).toContain('invalid_scope');
  });

  it('refuses userinfo without a valid bearer token', async () => {
    const response = await fetch(discovery.userinfo_endpoint, {
      headers: { authorization: 'Bearer ya29.not-a-token' },
    });
    expect(response.status).toBe(401);
  });
});

describe('mintIdToken', () => {
  it('signs with the issuer key so the JWKS verifies it', async () => {
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const token = await sandbox.mintIdToken({ sub: '123', email: 'x@example.test' });
    const { payload } = await jwtVerify(token, jwks, {
      issuer: sandbox.issuer,
      audience: CLIENT_ID,
    });
    expect(payload.sub).toBe('123');
  });

  it('signs with a foreign key that fails verification', async () => {
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const token = await sandbox.mintIdToken({ sub: '123' }, { signWith: 'foreign' });
    await expect(jwtVerify(token, jwks, { issuer: sandbox.issuer })).rejects.toThrow(
      /signature verification failed/,
    );
  });

  it('can mint an expired token', async () => {
    const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
    const token = await sandbox.mintIdToken({ sub: '123' }, { expiresInSeconds: -60 });
    await expect(jwtVerify(token, jwks)).rejects.toThrow(/"exp" claim timestamp check failed/);
  });
});
