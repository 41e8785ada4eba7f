import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JWT } from 'google-auth-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../index.js';
import { connect } from '../test/health-flow.js';
import {
  assertion,
  CLOUD_PLATFORM,
  downloadKeyFile,
  exchange,
  serviceAccountToken,
  subscribersApi,
} from '../test/service-account-flow.js';

let sandbox: Sandbox;
let dir: string;
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
  dir = mkdtempSync(join(tmpdir(), 'sandbox-sa-'));
});

afterEach(() => {
  sandbox.health.resetControls();
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const listPath = () => `/v4/projects/${sandbox.health.webhooks.project.number}/subscribers`;

describe('service-account key file', () => {
  it('is served on loopback in Google’s format, pointing at the sandbox', async () => {
    const response = await fetch(`${sandbox.httpUrl}/__admin/health/service-account.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toContain('attachment');
    const key = (await response.json()) as Record<string, string>;
    expect(key).toMatchObject({
      type: 'service_account',
      project_id: 'sandbox-health-project',
      client_email: 'health-webhooks@sandbox-health-project.iam.gserviceaccount.com',
      token_uri: `${sandbox.issuer}/token`,
      universe_domain: 'googleapis.com',
    });
    expect(key.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(key.private_key_id).toMatch(/^[0-9a-f]{40}$/);
    expect(key.client_id).toMatch(/^\d{21}$/);
  });
});

describe('google-auth-library with the key file', () => {
  it('obtains a cloud-platform token from the sandbox and lists subscribers with it', async () => {
    const keyFile = join(dir, 'key.json');
    writeFileSync(keyFile, JSON.stringify(await downloadKeyFile(sandbox)));
    const saved = JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, string>;
    const client = new JWT({
      email: saved.client_email,
      key: saved.private_key,
      keyId: saved.private_key_id,
      scopes: [CLOUD_PLATFORM],
    });
    // The library posts to Google's token URL whatever the key file says: point it at the sandbox.
    const tokenRequests: string[] = [];
    client.transporter.interceptors.request.add({
      resolved: async (config) => {
        if (config.url.href === GOOGLE_TOKEN_URL) {
          tokenRequests.push(config.url.href);
          config.url = new URL(sandbox.health.urls.tokenUrl);
        }
        return config;
      },
    });
    const { token } = await client.getAccessToken();
    expect(tokenRequests).toEqual([GOOGLE_TOKEN_URL]);
    expect(token).toMatch(/^ya29\./);
    const listed = await client.request({ url: `${sandbox.health.urls.apiBaseUrl}${listPath()}` });
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual({});
  });
});

describe('JWT-bearer grant', () => {
  it('is advertised in the discovery document', async () => {
    const discovery = (await (
      await fetch(`${sandbox.issuer}/.well-known/openid-configuration`)
    ).json()) as { grant_types_supported: string[] };
    expect(discovery.grant_types_supported).toContain(
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    );
  });

  it('answers a good assertion with an hour’s bearer token', async () => {
    const key = await downloadKeyFile(sandbox);
    const { status, json } = await exchange(key, await assertion(key));
    expect(status).toBe(200);
    expect(json).toEqual({
      access_token: expect.stringMatching(/^ya29\./),
      expires_in: 3599,
      token_type: 'Bearer',
    });
  });

  it('accepts Google’s token URL as the audience (what client libraries sign)', async () => {
    const key = await downloadKeyFile(sandbox);
    const { status } = await exchange(key, await assertion(key, { aud: GOOGLE_TOKEN_URL }));
    expect(status).toBe(200);
  });

  it('refuses a foreign signature, another issuer, a stale or too long assertion, no scope', async () => {
    const key = await downloadKeyFile(sandbox);
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect((await exchange(key, await assertion(key, {}, foreign))).json).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid JWT Signature.',
    });
    expect(
      (await exchange(key, await assertion(key, { iss: 'someone@else.iam.gserviceaccount.com' })))
        .json,
    ).toEqual({ error: 'invalid_grant', error_description: 'Invalid grant: account not found' });
    const hoursAgo = Math.floor(Date.now() / 1000) - 3 * 3600;
    const stale = await exchange(key, await assertion(key, { iat: hoursAgo }));
    expect(stale.status).toBe(400);
    expect(stale.json.error_description).toMatch(/short-lived token/);
    const long = await exchange(
      key,
      await assertion(key, { exp: Math.floor(Date.now() / 1000) + 2 * 3600 }),
    );
    expect(long.json.error).toBe('invalid_grant');
    expect((await exchange(key, await assertion(key, { scope: '' }))).json).toEqual({
      error: 'invalid_scope',
      error_description: 'Invalid OAuth scope or ID token audience provided.',
    });
    expect(
      (await exchange(key, await assertion(key, { aud: 'https://elsewhere.test/' }))).json,
    ).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('who may call the subscribers API', () => {
  it('401 without a token, 403 for a person’s token, 403 without the IAM role', async () => {
    const none = await subscribersApi(sandbox, null, 'GET', listPath());
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });

    const person = await connect(sandbox, 'alex.rivera@gmail.test');
    const byPerson = await subscribersApi(sandbox, person.access_token, 'GET', listPath());
    expect(byPerson.status).toBe(403);
    expect(byPerson.json).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });

    const token = await serviceAccountToken(sandbox);
    expect((await subscribersApi(sandbox, token, 'GET', listPath())).status).toBe(200);
    sandbox.health.setControls({ serviceAccountHasRole: false });
    const denied = await subscribersApi(sandbox, token, 'GET', listPath());
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({
      error: {
        code: 403,
        message: 'The caller does not have permission',
        status: 'PERMISSION_DENIED',
      },
    });
  });

  it('403 for a service-account token without the cloud-platform scope', async () => {
    const key = await downloadKeyFile(sandbox);
    const { json } = await exchange(
      key,
      await assertion(key, { scope: 'https://www.googleapis.com/auth/userinfo.email' }),
    );
    const narrow = await subscribersApi(sandbox, String(json.access_token), 'GET', listPath());
    expect(narrow.status).toBe(403);
    expect(narrow.json).toMatchObject({
      error: {
        status: 'PERMISSION_DENIED',
        message: 'Request had insufficient authentication scopes.',
      },
    });
  });

  it('expires service-account tokens after an hour of the sandbox clock', async () => {
    const token = await serviceAccountToken(sandbox);
    sandbox.health.clock.advance(3_600_000);
    expect((await subscribersApi(sandbox, token, 'GET', listPath())).status).toBe(401);
  });
});
