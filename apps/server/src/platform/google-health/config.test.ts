import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('GOOGLE_HEALTH_* settings', () => {
  it('default to the sandbox, on the same paths as Google', () => {
    expect(loadConfig({ SANDBOX_PORT: '3100' }).googleHealth).toEqual({
      authUrl: 'http://localhost:3100/o/oauth2/v2/auth',
      tokenUrl: 'http://localhost:3100/token',
      revokeUrl: 'http://localhost:3100/revoke',
      apiUrl: 'http://localhost:3100',
      clientId: 'sandbox-client-id.apps.googleusercontent.com',
      clientSecret: 'sandbox-client-secret',
      webhooks: {
        serviceAccount: {
          kind: 'url',
          url: 'http://localhost:3100/__admin/health/service-account.json',
        },
        projectNumber: '424242424242',
        secret: 'Bearer sandbox-webhook-secret-not-for-production',
        endpointUrl: 'http://localhost:3000/webhooks/google-health',
        usesSandbox: true,
      },
    });
  });

  it("follow Google's sign-in to Google's own hosts, with the sign-in client unless told otherwise", () => {
    const google = {
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'signin.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'signin-secret',
    };
    expect(loadConfig(google).googleHealth).toEqual({
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      apiUrl: 'https://health.googleapis.com',
      clientId: 'signin.apps.googleusercontent.com',
      clientSecret: 'signin-secret',
      webhooks: {
        serviceAccount: null,
        projectNumber: null,
        secret: null,
        endpointUrl: 'http://localhost:3000/webhooks/google-health',
        usesSandbox: false,
      },
    });
    const own = loadConfig({
      ...google,
      GOOGLE_HEALTH_CLIENT_ID: 'health.apps.googleusercontent.com',
      GOOGLE_HEALTH_CLIENT_SECRET: 'health-secret',
      GOOGLE_HEALTH_API_URL: 'https://health.example.org/',
    }).googleHealth;
    expect(own).toMatchObject({
      clientId: 'health.apps.googleusercontent.com',
      clientSecret: 'health-secret',
      apiUrl: 'https://health.example.org',
    });
  });

  it('refuse a client id without its secret, and URLs that are not web addresses', () => {
    let error: unknown;
    try {
      loadConfig({ GOOGLE_HEALTH_CLIENT_ID: 'x', GOOGLE_HEALTH_TOKEN_URL: 'ftp://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('GOOGLE_HEALTH_CLIENT_SECRET');
    expect(problems).toContain('GOOGLE_HEALTH_TOKEN_URL');
  });
});
