import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { oneTimeTokens, users } from '../../db/schema/index.js';
import {
  bearer,
  checkResetToken,
  registerUser,
  someAddress,
  uniqueEmail,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

const SENT = 'Password reset email sent! Check your inbox for instructions.';

describe('forgot and reset password', () => {
  const t = useTestApp();
  beforeEach(() => t.sandbox?.clear());

  const forgot = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email },
      remoteAddress: someAddress(),
    });

  /** Requests a reset and returns the token from the link in the delivered e-mail. */
  async function mailedToken(email: string): Promise<string> {
    expect((await forgot(email)).json()).toEqual({ success: true, message: SENT });
    const mail = await t.sandbox?.waitForMessage(
      { to: email, subjectIncludes: 'Reset your password' },
      15_000,
    );
    const link = /http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(
      mail?.text ?? '',
    );
    expect(mail?.html).toContain('Reset password');
    if (!link?.[1]) throw new Error(`no reset link in: ${mail?.text}`);
    return link[1];
  }

  it('mails a single-use link, and gives the same answer for an unknown address (no mail)', async () => {
    const account = await registerUser(t.app);
    await mailedToken(account.email);
    const unknown = uniqueEmail('nobody');
    expect((await forgot(unknown)).json()).toEqual({ success: true, message: SENT });
    await new Promise((r) => setTimeout(r, 1500));
    expect(t.sandbox?.messages({ to: unknown })).toEqual([]);
  });

  it('sets the new password, ends every session, and refuses the link a second time', async () => {
    const account = await registerUser(t.app);
    const token = await mailedToken(account.email);

    const check = await checkResetToken(t.app, token);
    expect(check.json()).toEqual({
      success: true,
      purpose: 'reset_password',
      email: account.email,
    });

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'brand-new-pass' },
    });
    expect(reset.json()).toEqual({
      success: true,
      message: 'Your password has been changed. You can now sign in.',
    });

    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode,
    ).toBe(401);
    const oldLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
      remoteAddress: someAddress(),
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'brand-new-pass' },
      remoteAddress: someAddress(),
    });
    expect(newLogin.statusCode).toBe(200);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'third-password' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'INVALID_RESET_TOKEN',
      message: 'This link is invalid or has expired. Please request a new one.',
    });
    const [row] = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.email, account.email));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('refuses an expired link and one replaced by a newer request', async () => {
    const account = await registerUser(t.app);
    const first = await mailedToken(account.email);
    t.sandbox?.clear();
    const second = await mailedToken(account.email);
    const replaced = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: first, password: 'whatever1' },
    });
    expect(replaced.statusCode).toBe(400);

    await t.app.platform.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.purpose, 'reset_password'));
    const expired = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: second, password: 'whatever1' },
    });
    expect(expired.statusCode).toBe(400);
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/auth/check-reset-token',
      payload: { token: second },
    });
    expect(check.statusCode).toBe(400);
  });

  it('validates the new password and the token shape', async () => {
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'x'.repeat(43), password: '123' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.fields).toEqual([
      { field: 'password', message: 'Password must be at least 6 characters' },
    ]);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { password: 'secret1' },
    });
    expect(noToken.statusCode).toBe(400);
    const noEmail = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: {},
    });
    expect(noEmail.statusCode).toBe(400);
  });

  it('sends at most three reset mails an hour to one account', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 5; i++)
      expect((await forgot(account.email)).json()).toEqual({ success: true, message: SENT });
    const rows = await t.app.platform.db
      .select()
      .from(oneTimeTokens)
      .where(
        and(eq(oneTimeTokens.userId, account.user.id), eq(oneTimeTokens.purpose, 'reset_password')),
      );
    expect(rows).toHaveLength(3);
  });
});
