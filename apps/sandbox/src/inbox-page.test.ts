import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, type Sandbox, startSandbox } from './index.js';
import { cspProblems } from './test/csp.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

async function sendSms(to: string, body: string) {
  const auth = `${SANDBOX_DEFAULTS.twilioAccountSid}:${SANDBOX_DEFAULTS.twilioAuthToken}`;
  const response = await fetch(
    `${sandbox.httpUrl}/2010-04-01/Accounts/${SANDBOX_DEFAULTS.twilioAccountSid}/Messages.json`,
    {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
      body: new URLSearchParams({ To: to, From: '+15005550006', Body: body }),
    },
  );
  expect(response.status).toBe(201);
}

describe('inbox', () => {
  it('answers health checks and redirects / to the inbox', async () => {
    const health = await fetch(`${sandbox.httpUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const root = await fetch(`${sandbox.httpUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/inbox');
  });

  it('lists mail and SMS newest first, escaped, with links and a sandboxed html frame', async () => {
    sandbox.clear();
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: sandbox.smtpPort, ignoreTLS: true })
      .sendMail({
        from: '"<b>Evil</b>" <evil@example.test>',
        to: 'reader@example.test',
        subject: 'Hi <script>alert(1)</script>',
        text: 'Verify at http://localhost:3000/verify?token=a&b=c. Thanks',
        html: '<p onclick="x()">Hello "there"</p><script>alert(2)</script>',
      });
    await sendSms('+14155550123', 'Code 111222');

    const response = await fetch(`${sandbox.httpUrl}/inbox`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>Evil</b>');
    expect(html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(
      '<a href="http://localhost:3000/verify?token=a&amp;b=c" target="_blank" rel="noopener noreferrer">',
    );
    expect(html).toMatch(
      /<iframe sandbox="allow-popups allow-popups-to-escape-sandbox"[^>]*srcdoc="[^"]*&lt;p onclick=&quot;x\(\)&quot;&gt;/,
    );
    // Newest first: the SMS was captured after the mail.
    expect(html.indexOf('Code 111222')).toBeLessThan(html.indexOf('reader@example.test'));
    expect(html).toContain('Alex Rivera');
    expect(html).toContain('sam.chen@gmail.test');
  });

  it('sends a Content-Security-Policy whose every source is valid (no bracketed IPv6 host)', async () => {
    for (const path of ['/inbox', '/inbox?to=reader%40example.test']) {
      const response = await fetch(`${sandbox.httpUrl}${path}`);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("form-action 'self'");
      expect(cspProblems(policy), path).toEqual([]);
      expect(policy, path).not.toContain('[');
    }
  });

  it('serves its favicon as an image, linked from the page', async () => {
    const html = await (await fetch(`${sandbox.httpUrl}/inbox`)).text();
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const response = await fetch(`${sandbox.httpUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^image\/svg\+xml\b/);
      expect(await response.text(), path).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  it('filters messages.json by recipient, matching phone numbers by their digits', async () => {
    sandbox.clear();
    await sendSms('+14155550199', 'first');
    await sendSms('+14155550199', 'second');
    await sendSms('+14155550100', 'other');
    const response = await fetch(
      `${sandbox.httpUrl}/inbox/messages.json?to=%2B1%20415%20555%200199`,
    );
    const { messages } = (await response.json()) as { messages: { text: string }[] };
    expect(messages.map((m) => m.text)).toEqual(['second', 'first']);

    const cleared = await fetch(`${sandbox.httpUrl}/inbox/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    const after = await fetch(`${sandbox.httpUrl}/inbox/messages.json`);
    expect(await after.json()).toEqual({ messages: [] });
  });
});
