import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CapturedMessage, type Sandbox, startSandbox } from './index.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ httpPort: 0, smtpPort: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sandbox.clear();
});

function transport(auth?: { user: string; pass: string }) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: sandbox.smtpPort,
    secure: false,
    ignoreTLS: true,
    ...(auth ? { auth } : {}),
  });
}

async function inbox(to: string): Promise<CapturedMessage[]> {
  const response = await fetch(
    `${sandbox.httpUrl}/inbox/messages.json?to=${encodeURIComponent(to)}`,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: CapturedMessage[] }).messages;
}

describe('SMTP catcher', () => {
  it('captures mail sent by nodemailer, one message per recipient, text and html kept', async () => {
    const info = await transport().sendMail({
      from: '"Research Platform" <no-reply@research.test>',
      to: 'Pat Doe <pat@example.test>',
      bcc: 'auditor@example.test',
      subject: 'Your verification code',
      text: 'Your code is 123456. Open http://localhost:3000/verify?c=1 to continue.',
      html: '<p>Your code is <b>123456</b>.</p>',
    });
    expect(info.accepted).toEqual(['pat@example.test', 'auditor@example.test']);

    const messages = await inbox('PAT@example.test');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channel: 'email',
      to: 'pat@example.test',
      from: '"Research Platform" <no-reply@research.test>',
      subject: 'Your verification code',
      html: '<p>Your code is <b>123456</b>.</p>',
    });
    expect(messages[0]?.text).toContain('Your code is 123456.');
    expect(Date.parse(messages[0]?.receivedAt ?? '')).not.toBeNaN();
    expect(await inbox('auditor@example.test')).toHaveLength(1);
    expect(sandbox.messages({ channel: 'email' })).toHaveLength(2);
  });

  it('accepts AUTH PLAIN and LOGIN when a client offers credentials', async () => {
    await transport({ user: 'anyone', pass: 'anything' }).sendMail({
      from: 'a@research.test',
      to: 'plain@example.test',
      subject: 'plain',
      text: 'hi',
    });
    const login = nodemailer.createTransport({
      host: '127.0.0.1',
      port: sandbox.smtpPort,
      ignoreTLS: true,
      auth: { user: 'u', pass: 'p' },
      authMethod: 'LOGIN',
    });
    await login.sendMail({
      from: 'a@research.test',
      to: 'login@example.test',
      subject: 'login',
      text: 'hi',
    });
    expect(sandbox.messages({ to: 'plain@example.test' })).toHaveLength(1);
    expect(sandbox.messages({ to: 'login@example.test' })).toHaveLength(1);
  });

  it('lets tests wait for a message that has not arrived yet', async () => {
    const waiting = sandbox.waitForMessage(
      { to: 'later@example.test', subjectIncludes: 'welcome' },
      5_000,
    );
    await transport().sendMail({
      from: 'a@research.test',
      to: 'later@example.test',
      subject: 'Welcome aboard',
      text: 'Hello',
    });
    const message = await waiting;
    expect(message.subject).toBe('Welcome aboard');
    await expect(sandbox.waitForMessage({ to: 'nobody@example.test' }, 50)).rejects.toThrow(
      /No message matching/,
    );
  });

  it('keeps the html of html-only mail and derives its text', async () => {
    await transport().sendMail({
      from: 'a@research.test',
      to: 'html@example.test',
      subject: 'html only',
      html: '<h1>Hello</h1><p>Click <a href="http://localhost:3000/x">here</a></p>',
    });
    const [message] = sandbox.messages({ to: 'html@example.test' });
    expect(message?.html).toContain('<h1>Hello</h1>');
    expect(message?.text).toMatch(/hello/i);
    expect(message?.text).toContain('http://localhost:3000/x');
  });

  it('refuses messages over 25 MB', async () => {
    // A prebuilt raw message skips MIME encoding, which would dominate the test's time.
    const line = `${'x'.repeat(998)}\r\n`;
    const raw = `From: a@research.test\r\nTo: big@example.test\r\nSubject: big\r\n\r\n${line.repeat(26 * 1050)}`;
    await expect(
      transport().sendMail({
        envelope: { from: 'a@research.test', to: ['big@example.test'] },
        raw,
      }),
    ).rejects.toThrow(/552|size/i);
    expect(sandbox.messages({ to: 'big@example.test' })).toHaveLength(0);
  });
});
