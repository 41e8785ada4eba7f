import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../index.js';
import { connect, METRICS, RESEARCH_SCOPES, SLEEP } from '../test/health-flow.js';
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
} from '../test/oidc-flow.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
});

afterEach(() => {
  sandbox.health.resetControls();
});

afterAll(async () => {
  await sandbox.close();
});

const refresh = (refreshToken: string) =>
  postToken(sandbox.health.urls.tokenUrl, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
  });

async function consent(params: Record<string, string>, granted?: string[]) {
  const { requestId, html } = await openAuthorizePage(
    authorizeUrl(sandbox.health.urls.authorizationUrl, {
      scope: RESEARCH_SCOPES.join(' '),
      access_type: 'offline',
      ...params,
    }),
  );
  const result = await choose(sandbox.issuer, {
    request: requestId,
    account: 'sam.chen@gmail.test',
    granted_scope: granted ?? RESEARCH_SCOPES,
  });
  return { html, result, code: result.location?.searchParams.get('code') ?? '' };
}

describe('Google OAuth for health scopes', () => {
  it('exchanges a PKCE code once for a 1-hour token with the granted scopes and a refresh token', async () => {
    const { verifier, challenge } = pkcePair();
    const { html, code, result } = await consent(
      { code_challenge: challenge, code_challenge_method: 'S256', state: 'abc' },
      [SLEEP, METRICS],
    );
    expect(html).toContain('See your sleep data in Google Health');
    expect(result.location?.searchParams.get('state')).toBe('abc');
    expect(result.location?.searchParams.get('scope')).toBe(`${METRICS} ${SLEEP}`);
    const fields = codeExchange(code, { code_verifier: verifier });
    const wrongVerifier = await postToken(sandbox.health.urls.tokenUrl, {
      ...fields,
      code_verifier: pkcePair().verifier,
    });
    expect(wrongVerifier).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Invalid code verifier.' },
    });
    const token = await postToken(sandbox.health.urls.tokenUrl, fields);
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({
      expires_in: 3599,
      token_type: 'Bearer',
      scope: `${METRICS} ${SLEEP}`,
    });
    expect(String(token.json.refresh_token)).toMatch(/^1\/\/0/);
    // Production client (the default): no refresh-token expiry in the answer.
    expect(token.json.refresh_token_expires_in).toBeUndefined();

    const again = await postToken(sandbox.health.urls.tokenUrl, fields);
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
  });

  it('requires the exact redirect_uri at the token endpoint', async () => {
    const { code } = await consent({});
    const response = await postToken(
      sandbox.health.urls.tokenUrl,
      codeExchange(code, { redirect_uri: `${REDIRECT_URI}/other` }),
    );
    expect(response.status).toBe(400);
    expect(response.json.error).toBe('redirect_uri_mismatch');
  });

  it('refuses a wrong client secret with invalid_client (401)', async () => {
    const response = await postToken(sandbox.health.urls.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: '1//0nothing',
      client_id: CLIENT_ID,
      client_secret: 'wrong',
    });
    expect(response.status).toBe(401);
    expect(response.json.error).toBe('invalid_client');
  });

  it('rejects scopes outside googlehealth. with invalid_scope', async () => {
    const response = await fetch(
      authorizeUrl(sandbox.health.urls.authorizationUrl, {
        scope: `${SLEEP} https://www.googleapis.com/auth/fitness.activity.read`,
      }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Error 400: invalid_scope');
    expect(html).toContain('fitness.activity.read');
  });

  it('sends error=access_denied when the person denies', async () => {
    const { requestId } = await openAuthorizePage(
      authorizeUrl(sandbox.health.urls.authorizationUrl, {
        scope: SLEEP,
        state: 'deny-me',
      }),
    );
    const result = await choose(sandbox.issuer, { request: requestId, account: 'cancel' });
    expect(result.location?.searchParams.get('error')).toBe('access_denied');
    expect(result.location?.searchParams.get('state')).toBe('deny-me');
  });

  it('refreshes without a new refresh token; access tokens die after an hour of the clock', async () => {
    const tokens = await connect(sandbox, 'clock.user@example.test');
    const info = (token: string) =>
      fetch(`${sandbox.issuer}/tokeninfo?access_token=${encodeURIComponent(token)}`);
    expect((await info(tokens.access_token)).status).toBe(200);
    sandbox.health.clock.advance(3_600_000);
    expect((await info(tokens.access_token)).status).toBe(400);
    const refreshed = await refresh(tokens.refresh_token ?? '');
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).toBeUndefined();
    expect(refreshed.json.scope).toBe(tokens.scope);
    expect((await info(String(refreshed.json.access_token))).status).toBe(200);
  });

  it('in Testing mode, says refresh_token_expires_in 604799 and refuses the refresh after 7 days', async () => {
    sandbox.health.setControls({ testingMode: true });
    const tokens = await connect(sandbox, 'testing.mode@example.test');
    expect(tokens.refresh_token_expires_in).toBe(604799);
    sandbox.health.clock.advance(6 * 86_400_000);
    expect((await refresh(tokens.refresh_token ?? '')).status).toBe(200);
    sandbox.health.clock.advance(86_400_000);
    expect(await refresh(tokens.refresh_token ?? '')).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    });
  });

  it('refuses a refresh token left unused for six months', async () => {
    const tokens = await connect(sandbox, 'idle.user@example.test');
    sandbox.health.clock.advance(150 * 86_400_000);
    expect((await refresh(tokens.refresh_token ?? '')).status).toBe(200);
    sandbox.health.clock.advance(184 * 86_400_000);
    expect((await refresh(tokens.refresh_token ?? '')).json.error).toBe('invalid_grant');
  });

  it('revoking the access token revokes the grant; an unknown refresh token is invalid_grant', async () => {
    const tokens = await connect(sandbox, 'revoker@example.test');
    const revoke = await fetch(sandbox.health.urls.revokeUrl, {
      method: 'POST',
      body: new URLSearchParams({ token: tokens.access_token }),
    });
    expect(revoke.status).toBe(200);
    expect((await refresh(tokens.refresh_token ?? '')).json).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    expect((await refresh('1//0unknown')).json).toEqual({
      error: 'invalid_grant',
      error_description: 'Bad Request',
    });
    const [connection] = sandbox.health.connections('revoker@example.test');
    expect(connection?.revokedAt).toBeTruthy();
  });

  it('revokes an account over the loopback admin route', async () => {
    const tokens = await connect(sandbox, 'admin.revoke@example.test');
    const response = await fetch(`${sandbox.httpUrl}/__admin/health/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Admin.Revoke@example.test' }),
    });
    // No subscriber listens here, so no DELETE notification goes out.
    expect(await response.json()).toEqual({ revoked: 1, notifications: 0 });
    expect((await refresh(tokens.refresh_token ?? '')).json.error).toBe('invalid_grant');
  });

  it('plays the consent page from code: granted subset, deny, and the error page', async () => {
    const url = authorizeUrl(sandbox.health.urls.authorizationUrl, {
      scope: RESEARCH_SCOPES.join(' '),
      state: 'from-code',
    });
    const granted = await sandbox.health.consent(url, {
      email: 'coded@example.test',
      granted: [SLEEP],
    });
    expect(granted.searchParams.get('scope')).toBe(SLEEP);
    expect(granted.searchParams.get('state')).toBe('from-code');
    const denied = await sandbox.health.consent(url, { email: 'coded@example.test', deny: true });
    expect(denied.searchParams.get('error')).toBe('access_denied');
    await expect(
      sandbox.health.consent(
        authorizeUrl(sandbox.health.urls.authorizationUrl, { scope: 'https://example.test/x' }),
        { email: 'coded@example.test' },
      ),
    ).rejects.toThrow(/consent page answered 400/);
  });

  it('adds earlier grants back only with include_granted_scopes=true, as Google does', async () => {
    const email = 'incremental@example.test';
    const reconsent = async (params: Record<string, string>, granted: string[]) => {
      const { requestId } = await openAuthorizePage(
        authorizeUrl(sandbox.health.urls.authorizationUrl, {
          scope: RESEARCH_SCOPES.join(' '),
          access_type: 'offline',
          prompt: 'consent',
          ...params,
        }),
      );
      const result = await choose(sandbox.issuer, {
        request: requestId,
        account: 'custom',
        email,
        granted_scope: granted,
      });
      const token = await postToken(
        sandbox.health.urls.tokenUrl,
        codeExchange(result.location?.searchParams.get('code') ?? ''),
      );
      return {
        redirected: (result.location?.searchParams.get('scope') ?? '').split(' '),
        token: String(token.json.scope).split(' '),
      };
    };
    const withoutSleep = RESEARCH_SCOPES.filter((s) => s !== SLEEP);
    await reconsent({}, RESEARCH_SCOPES);

    // What we send: no include_granted_scopes. Only what is ticked this time.
    const plain = await reconsent({}, withoutSleep);
    expect(plain.redirected).not.toContain(SLEEP);
    expect(plain.token).not.toContain(SLEEP);
    expect(plain.token.sort()).toEqual([...withoutSleep].sort());

    // Incremental authorization: the earlier grant's sleep comes back.
    const incremental = await reconsent({ include_granted_scopes: 'true' }, withoutSleep);
    expect(incremental.redirected).toContain(SLEEP);
    expect(incremental.token).toContain(SLEEP);

    // A revoked grant adds nothing back.
    sandbox.health.revoke(email);
    const afterRevoke = await reconsent({ include_granted_scopes: 'true' }, withoutSleep);
    expect(afterRevoke.token).not.toContain(SLEEP);
  });

  it('changes knobs over the admin route and refuses bad values', async () => {
    const set = await fetch(`${sandbox.httpUrl}/__admin/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ testingMode: true, perUserPerMinute: 5, clockOffsetMs: 1000 }),
    });
    expect(await set.json()).toMatchObject({ testingMode: true, perUserPerMinute: 5 });
    expect(sandbox.health.controls().clockOffsetMs).toBe(1000);
    const bad = await fetch(`${sandbox.httpUrl}/__admin/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error500Rate: 2 }),
    });
    expect(bad.status).toBe(400);
  });
});
