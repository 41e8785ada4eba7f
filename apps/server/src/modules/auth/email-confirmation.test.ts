import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { applicationFor, bearer, registerUser, someAddress } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('e-mail confirmation', () => {
  const t = useTestApp();

  const submit = (token: string, email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: bearer(token),
      payload: applicationFor(email),
      remoteAddress: someAddress(),
    });

  it('mails a single-use link at sign-up; applications need the confirmed address', async () => {
    const account = await registerUser(t.app, {}, { confirmed: false });
    const profile = await t.app.inject({
      url: '/api/auth/profile',
      headers: bearer(account.token),
    });
    expect(profile.json().researcher.emailVerified).toBe(false);

    const refused = await submit(account.token, account.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'EMAIL_NOT_CONFIRMED',
      message:
        'Please confirm your e-mail address before submitting an application. Use the link we e-mailed you, or request a new one.',
    });

    const mail = await t.sandbox?.waitForMessage(
      { to: account.email, subjectIncludes: 'Confirm your e-mail address' },
      15_000,
    );
    const link = /http:\/\/localhost:3000\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(
      mail?.text ?? '',
    )?.[0] as string;
    expect(link).toBeDefined();
    const token = decodeURIComponent(new URL(link).searchParams.get('token') as string);

    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/confirm-email',
      payload: { token },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(
      'Your e-mail address is confirmed. You can now submit your researcher application.',
    );
    const [row] = await t.app.platform.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/confirm-email',
      payload: { token },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_CONFIRMATION_TOKEN');

    expect((await submit(account.token, account.email)).statusCode).toBe(201);
  });

  it('sends a fresh link on request, which replaces the older one', async () => {
    const account = await registerUser(t.app, {}, { confirmed: false });
    await t.sandbox?.waitForMessage({ to: account.email, subjectIncludes: 'Confirm' }, 15_000);
    const resent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/resend-confirmation',
      headers: bearer(account.token),
    });
    expect(resent.json()).toEqual({
      success: true,
      message: 'We sent a confirmation link to your e-mail address.',
    });
    const mails = async () =>
      (t.sandbox?.messages({ to: account.email }) ?? []).filter((m) =>
        m.subject?.includes('Confirm your e-mail address'),
      );
    for (let i = 0; i < 150 && (await mails()).length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    const [first, second] = await mails();
    const tokenOf = (text = '') =>
      decodeURIComponent(/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(text)?.[1] ?? '');
    const confirm = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/confirm-email', payload: { token } });
    const tokens = [tokenOf(first?.text), tokenOf(second?.text)];
    const answers = await Promise.all(tokens.map(confirm));
    // The newer link retired the older one: exactly one of the two works.
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/auth/resend-confirmation',
      headers: bearer(account.token),
    });
    expect(done.json().message).toBe('Your e-mail address is already confirmed.');
  });
});
