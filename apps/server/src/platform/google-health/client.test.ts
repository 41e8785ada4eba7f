import { GOOGLE_HEALTH_READ_SCOPES } from '@research/contracts';
import { SANDBOX_DEFAULTS, type Sandbox, startSandbox } from '@research/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consentAt } from '../../test/wearables-kit.js';
import {
  backoffMs,
  createGoogleHealthClient,
  createPkcePair,
  type GoogleHealthClientOptions,
  GoogleHealthError,
  retryAfterMs,
} from './client.js';

const REDIRECT_URI = 'http://localhost:3000/fitbit/callback';
const SLEEP_SCOPE = GOOGLE_HEALTH_READ_SCOPES[2];

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

/** A client on the sandbox; `calls` counts requests, `sleeps` records back-off waits. */
function clientOnSandbox(options: GoogleHealthClientOptions = {}) {
  const calls: string[] = [];
  const sleeps: number[] = [];
  const urls = sandbox.health.urls;
  const client = createGoogleHealthClient(
    {
      authUrl: urls.authorizationUrl,
      tokenUrl: urls.tokenUrl,
      revokeUrl: urls.revokeUrl,
      apiUrl: urls.apiBaseUrl,
      clientId: SANDBOX_DEFAULTS.googleClientId,
      clientSecret: SANDBOX_DEFAULTS.googleClientSecret,
    },
    {
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      fetch: (input, init) => {
        calls.push(String(input));
        return fetch(input, init);
      },
      ...options,
    },
  );
  return { client, calls, sleeps };
}

async function connect(account: string, scopes?: readonly string[]) {
  const { client, calls, sleeps } = clientOnSandbox();
  const pkce = createPkcePair();
  const url = client.authorizationUrl({
    state: 'opaque-state',
    codeChallenge: pkce.challenge,
    redirectUri: REDIRECT_URI,
    scopes: GOOGLE_HEALTH_READ_SCOPES,
  });
  const consent = await consentAt(url, { account, ...(scopes ? { scopes } : {}) });
  const tokens = await client.exchangeCode({
    code: consent.code ?? '',
    codeVerifier: pkce.verifier,
    redirectUri: REDIRECT_URI,
  });
  return { client, calls, sleeps, tokens, consent };
}

describe('retry arithmetic', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('doubles the back-off per attempt, with jitter, up to the cap', () => {
    const policy = { maxAttempts: 9, baseDelayMs: 1000, maxDelayMs: 64_000 };
    expect(backoffMs(0, policy, () => 0)).toBe(500);
    expect(backoffMs(0, policy, () => 0.99)).toBe(995);
    expect(backoffMs(3, policy, () => 0)).toBe(4000);
    expect(backoffMs(20, policy, () => 1)).toBe(64_000);
  });
});

describe('Google Health client against the sandbox', () => {
  it('builds the consent URL: offline access, forced consent, PKCE S256, the minimum read scopes', () => {
    const { client } = clientOnSandbox();
    const url = new URL(
      client.authorizationUrl({
        state: 's1',
        codeChallenge: 'challenge',
        redirectUri: REDIRECT_URI,
        scopes: GOOGLE_HEALTH_READ_SCOPES,
      }),
    );
    expect(url.pathname).toBe('/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
      state: 's1',
      redirect_uri: REDIRECT_URI,
      scope: GOOGLE_HEALTH_READ_SCOPES.join(' '),
    });
    // No incremental authorization: Google would add back scopes granted earlier.
    expect(url.searchParams.has('include_granted_scopes')).toBe(false);
  });

  it('exchanges a code for tokens with the granted scopes, reads the identity, refreshes and revokes', async () => {
    const granted = GOOGLE_HEALTH_READ_SCOPES.filter((s) => s !== SLEEP_SCOPE);
    const { client, tokens } = await connect('client.one@gmail.test', granted);
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.refreshToken).toBeTruthy();
    expect([...tokens.scopes].sort()).toEqual([...granted].sort());
    expect(tokens.expiresAt.getTime() - Date.now()).toBeGreaterThan(3500 * 1000);

    const identity = await client.getIdentity(tokens.accessToken);
    expect(identity.healthUserId).toMatch(/^[A-Za-z0-9-]{1,63}$/);

    const refreshed = await client.refresh(tokens.refreshToken ?? '');
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(await client.getIdentity(refreshed.accessToken)).toEqual(identity);

    await client.revoke(tokens.refreshToken ?? '');
    const error = await client.refresh(tokens.refreshToken ?? '').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleHealthError);
    expect((error as GoogleHealthError).kind).toBe('invalid_grant');
    expect((error as GoogleHealthError).message).not.toContain(tokens.refreshToken ?? '');
    // Revoking a dead grant again is not an error.
    await client.revoke(tokens.refreshToken ?? '');
  });

  it('reports invalid_grant for a used code, without retrying', async () => {
    const { client, calls } = clientOnSandbox();
    const pkce = createPkcePair();
    const url = client.authorizationUrl({
      state: 's',
      codeChallenge: pkce.challenge,
      redirectUri: REDIRECT_URI,
      scopes: GOOGLE_HEALTH_READ_SCOPES,
    });
    const { code } = await consentAt(url, { account: 'client.two@gmail.test' });
    const input = { code: code ?? '', codeVerifier: pkce.verifier, redirectUri: REDIRECT_URI };
    await client.exchangeCode(input);
    const before = calls.length;
    const error = await client.exchangeCode(input).catch((e: unknown) => e);
    expect((error as GoogleHealthError).kind).toBe('invalid_grant');
    expect(calls.length - before).toBe(1);
  });

  it('retries 5xx with growing back-off and gives up after the attempt limit', async () => {
    const { tokens } = await connect('client.three@gmail.test');
    const { client, calls, sleeps } = clientOnSandbox({ retry: { maxAttempts: 4 } });
    sandbox.health.setControls({ error503Rate: 1 });
    const error = await client.getIdentity(tokens.accessToken).catch((e: unknown) => e);
    expect((error as GoogleHealthError).kind).toBe('unavailable');
    expect(calls).toHaveLength(4);
    expect(sleeps).toEqual([750, 1500, 3000]);
  });

  it('recovers when a 500 is followed by a good answer', async () => {
    const { tokens } = await connect('client.four@gmail.test');
    sandbox.health.setControls({ error500Rate: 1 });
    const { client, calls, sleeps } = clientOnSandbox({
      fetch: async (input, init) => {
        calls.push(String(input));
        const response = await fetch(input, init);
        sandbox.health.setControls({ error500Rate: 0 });
        return response;
      },
    });
    const identity = await client.getIdentity(tokens.accessToken);
    expect(identity.healthUserId).toBeTruthy();
    expect(calls).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('waits as long as Retry-After says on 429, then succeeds', async () => {
    const { tokens } = await connect('client.five@gmail.test');
    sandbox.health.setControls({ perUserPerMinute: 1 });
    const { client, calls, sleeps } = clientOnSandbox({
      // The sandbox clock stands in for time passing while the client waits.
      sleep: async (ms) => {
        sleeps.push(ms);
        sandbox.health.clock.advance(ms);
      },
    });
    await client.getIdentity(tokens.accessToken);
    const identity = await client.getIdentity(tokens.accessToken);
    expect(identity.healthUserId).toBeTruthy();
    expect(calls).toHaveLength(3);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect((sleeps[0] ?? 0) % 1000).toBe(0);
  });

  it('never retries other 4xx: a bad token is one call and an unauthenticated error', async () => {
    const { client, calls } = clientOnSandbox();
    const error = await client.getIdentity('not-a-token').catch((e: unknown) => e);
    expect((error as GoogleHealthError).kind).toBe('unauthenticated');
    expect((error as GoogleHealthError).status).toBe(401);
    expect(calls).toHaveLength(1);
  });

  it('retries an unreadable 5xx (an HTML error page) like any 5xx, then succeeds', async () => {
    const { tokens } = await connect('client.six@gmail.test');
    let served = 0;
    const { client, calls, sleeps } = clientOnSandbox({
      fetch: async (input, init) => {
        calls.push(String(input));
        served += 1;
        if (served === 1) {
          return new Response('<html><body>502 Bad Gateway</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          });
        }
        return fetch(input, init);
      },
    });
    const identity = await client.getIdentity(tokens.accessToken);
    expect(identity.healthUserId).toBeTruthy();
    expect(calls).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up on an unreadable 503 after the attempt limit as unavailable, not as a parse error', async () => {
    const { client, calls } = clientOnSandbox({
      retry: { maxAttempts: 3 },
      fetch: async (input) => {
        calls.push(String(input));
        return new Response('<html>Service Unavailable</html>', { status: 503 });
      },
    });
    const error = await client.getIdentity('ya29.any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleHealthError);
    expect((error as GoogleHealthError).kind).toBe('unavailable');
    expect(calls).toHaveLength(3);
  });

  it('reports an unreadable 2xx as an invalid answer with a clear message, without retrying', async () => {
    const { client, calls } = clientOnSandbox({
      fetch: async (input) => {
        calls.push(String(input));
        return new Response('<html>OK</html>', { status: 200 });
      },
    });
    const error = await client.getIdentity('ya29.any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleHealthError);
    expect((error as GoogleHealthError).kind).toBe('invalid_response');
    expect((error as GoogleHealthError).message).toBe('Google: the answer (HTTP 200) is not JSON');
    expect(calls).toHaveLength(1);
  });

  it('lets a decoder read 2xx answers from their bytes, falling back to JSON; errors stay JSON', async () => {
    const { tokens } = await connect('client.seven@gmail.test');
    const seen: string[] = [];
    const { client } = clientOnSandbox({
      decode: (bytes) => {
        seen.push(bytes.toString());
        return seen.length === 1 ? { read: 'by the decoder' } : null;
      },
    });
    expect(await client.getProfile(tokens.accessToken)).toEqual({ read: 'by the decoder' });
    const identity = await client.getIdentity(tokens.accessToken);
    expect(identity.healthUserId).toBe(JSON.parse(seen[1] ?? '{}').healthUserId);
    const error = await client.getIdentity('not-a-token').catch((e: unknown) => e);
    expect((error as GoogleHealthError).kind).toBe('unauthenticated');
    expect(seen).toHaveLength(2);
  });

  it('retries the token endpoint on 5xx and classifies what it finally says', async () => {
    const { client, calls, sleeps } = clientOnSandbox({
      retry: { maxAttempts: 3 },
      fetch: async (input) => {
        calls.push(String(input));
        return new Response('<html>Service Unavailable</html>', { status: 503 });
      },
    });
    const error = await client.refresh('1//any').catch((e: unknown) => e);
    expect((error as GoogleHealthError).kind).toBe('unavailable');
    expect((error as GoogleHealthError).status).toBe(503);
    expect(calls).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('reports a token answer it cannot use as an invalid answer, without retrying', async () => {
    const { client, calls } = clientOnSandbox({
      fetch: async (input) => {
        calls.push(String(input));
        return Response.json({ token_type: 'Bearer', expires_in: 3599 });
      },
    });
    const error = await client.refresh('1//any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleHealthError);
    expect((error as GoogleHealthError).kind).toBe('invalid_response');
    expect(calls).toHaveLength(1);
  });

  it('sends the revocation the token alone, without the client secret', async () => {
    const bodies: string[] = [];
    const { client } = clientOnSandbox({
      fetch: async (_input, init) => {
        bodies.push(String(init?.body));
        return new Response(null, { status: 200 });
      },
    });
    await client.revoke('1//some-refresh-token');
    const sent = new URLSearchParams(bodies[0]);
    expect(sent.get('token')).toBe('1//some-refresh-token');
    expect(sent.has('client_secret')).toBe(false);
  });
});
