import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../index.js';
import { connect, METRICS, SLEEP } from '../test/health-flow.js';
import { authorizeUrl } from '../test/oidc-flow.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0, google: { testingMode: true } });
});

afterAll(async () => {
  await sandbox.close();
});

describe('inbox page: simulated Google accounts and their connections', () => {
  it('shows what each account connected, when, and what was revoked', async () => {
    await connect(sandbox, 'sam.chen@gmail.test', { scopes: [SLEEP, METRICS], granted: [SLEEP] });
    await connect(sandbox, 'Typed.Person@example.test', { scopes: [METRICS] });
    sandbox.health.revoke('typed.person@example.test');
    const html = await (await fetch(`${sandbox.httpUrl}/inbox`)).text();
    const row = (email: string) => {
      const start = html.indexOf(`<td>${email}`);
      return html.slice(start, html.indexOf('</tr>', start));
    };
    const sam = row('sam.chen@gmail.test');
    expect(sam).toContain('<span class="status active">Active</span>');
    expect(sam).toContain('>sleep.readonly</span>');
    expect(sam).not.toContain('health_metrics_and_measurements.readonly');
    expect(sam).toContain('refresh token expires');
    const typed = row('typed.person@example.test');
    expect(typed).toContain('Revoked');
    expect(typed).toContain('>health_metrics_and_measurements.readonly</span>');
    expect(row('priya.patel@gmail.test')).toContain('Nothing connected');
    expect(sandbox.health.connections('sam.chen@gmail.test')).toEqual([
      expect.objectContaining({ scopes: [SLEEP], revokedAt: null }),
    ]);
  });

  it('serves a favicon and a CSP without IPv6 host sources', async () => {
    const inbox = await fetch(`${sandbox.httpUrl}/inbox`);
    const csp = inbox.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("form-action 'self';");
    expect(csp).not.toContain('[::1]');
    expect(await inbox.text()).toContain('<link rel="icon" href="/favicon.svg"');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await fetch(`${sandbox.httpUrl}${path}`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    }
    // The consent form may only end up at the app's own callback origin.
    const consent = await fetch(
      authorizeUrl(sandbox.health.urls.authorizationUrl, {
        scope: SLEEP,
        redirect_uri: 'http://127.0.0.1:5173/fitbit/callback',
      }),
    );
    expect(consent.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:5173;",
    );
    const ipv6 = await fetch(
      authorizeUrl(sandbox.health.urls.authorizationUrl, {
        scope: SLEEP,
        redirect_uri: 'http://[::1]:5173/fitbit/callback',
      }),
    );
    expect(ipv6.headers.get('content-security-policy')).toContain("form-action 'self' http:;");
  });
});
