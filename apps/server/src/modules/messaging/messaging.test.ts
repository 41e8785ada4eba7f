import { startSandbox } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outboundMessages } from '../../db/schema/index.js';
import {
  createTestApp,
  eventually,
  freePort,
  type TestApp,
  useTestApp,
} from '../../test/test-app.js';

const rowOf = async (t: TestApp, id: string) =>
  (await t.app.platform.db.select().from(outboundMessages).where(eq(outboundMessages.id, id)))[0];

describe('outbound mail and SMS through the job queue', () => {
  const t = useTestApp();

  it('delivers an e-mail over SMTP and records it as sent, with its content encrypted at rest', async () => {
    const id = await t.app.platform.messaging.queueEmail('test', {
      to: 'ada@example.org',
      subject: 'Welcome aboard',
      html: '<p>Hello <b>Ada</b></p>',
      text: 'Hello Ada',
    });
    const mail = await t.sandbox?.waitForMessage({ to: 'ada@example.org', channel: 'email' });
    expect(mail).toMatchObject({ subject: 'Welcome aboard', channel: 'email' });
    expect(mail?.text.trim()).toBe('Hello Ada');
    expect(mail?.html).toContain('<b>Ada</b>');
    const row = await eventually(async () => {
      const r = await rowOf(t, id);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.payloadEncrypted).not.toContain('ada@example.org');
    expect(row.payloadEncrypted).not.toContain('Welcome');
  });

  it('delivers an SMS through the Twilio API', async () => {
    const id = await t.app.platform.messaging.queueSms('test', {
      to: '+15551234567',
      body: 'Your code is 123456',
    });
    const sms = await t.sandbox?.waitForMessage({ to: '+15551234567', channel: 'sms' });
    expect(sms?.text).toBe('Your code is 123456');
    const row = await eventually(async () =>
      (await rowOf(t, id))?.status === 'sent' ? rowOf(t, id) : undefined,
    );
    expect(row?.providerId).toMatch(/^SM[0-9a-f]{32}$/);
  });
});

describe('when a provider fails', () => {
  it('keeps mail while the SMTP relay is down and delivers it once the relay is back', async () => {
    const smtpPort = await freePort();
    const t = await createTestApp({ withoutSandbox: true, smtpPort });
    try {
      const id = await t.app.platform.messaging.queueEmail('test', {
        to: 'grace@example.org',
        subject: 'Delivered late',
        html: '<p>late</p>',
        text: 'late',
      });
      // The first attempt fails (connection refused) and the message stays queued for a retry.
      const failed = await eventually(async () => {
        const r = await rowOf(t, id);
        return r && r.attempts >= 1 && r.lastError ? r : undefined;
      });
      expect(failed.status).toBe('queued');

      const sandbox = await startSandbox({ httpPort: 0, smtpPort });
      try {
        const mail = await sandbox.waitForMessage({ to: 'grace@example.org' }, 30_000);
        expect(mail.subject).toBe('Delivered late');
        const sent = await eventually(async () =>
          (await rowOf(t, id))?.status === 'sent' ? rowOf(t, id) : undefined,
        );
        expect(sent?.attempts).toBeGreaterThanOrEqual(2);
      } finally {
        await sandbox.close();
      }
    } finally {
      await t.close();
    }
  }, 60_000);

  it('records a permanent SMS failure (bad credentials) as failed without retrying', async () => {
    const t = await createTestApp({ env: { TWILIO_AUTH_TOKEN: 'wrong-token' } });
    try {
      const id = await t.app.platform.messaging.queueSms('test', {
        to: '+15557654321',
        body: 'never sent',
      });
      const row = await eventually(async () =>
        (await rowOf(t, id))?.status === 'failed' ? rowOf(t, id) : undefined,
      );
      expect(row?.attempts).toBe(1);
      expect(row?.lastError).toBeTruthy();
      expect(t.sandbox?.messages({ to: '+15557654321' })).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
