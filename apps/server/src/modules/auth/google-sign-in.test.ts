import { randomBytes } from 'node:crypto';
import type { IdTokenTamper } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oauthStates, users } from '../../db/schema/index.js';
import { sha256Hex } from '../../platform/crypto.js';
import { bearer, registerUser, someAddress, uniqueEmail } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('Google sign-in (OpenID Connect against the sandbox issuer)', () => {
  const t = useTestApp();

  const newBinding = () => randomBytes(32).toString('base64url');

  /** Runs the popup's part: start → Google's account chooser → redirect with code and state. */
  async function authorize(account: { email: string; name: string }, binding: string) {
    const start = await t.app.inject({
      url: `/api/auth/google/start?binding=${binding}`,
      remoteAddress: someAddress(),
    });
    expect(start.statusCode).toBe(302);
    const authorizeUrl = new URL(start.headers.location as string);
    expect(authorizeUrl.origin).toBe(new URL(t.sandbox?.issuer as string).origin);
    expect(authorizeUrl.searchParams.get('scope')).toBe('openid email profile');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(
      'http://localhost:3000/auth/google/callback',
    );

    const page = await fetch(authorizeUrl);
    const requestId = /name="request" value="([^"]+)"/.exec(await page.text())?.[1];
    if (!requestId) throw new Error('no account chooser');
    const chosen = await fetch(`${t.sandbox?.issuer}/o/oauth2/v2/auth/choose`, {
      method: 'POST',
      body: new URLSearchParams({
        request: requestId,
        account: 'custom',
        email: account.email,
        name: account.name,
      }),
      redirect: 'manual',
    });
    const back = new URL(chosen.headers.get('location') as string);
    return {
      code: back.searchParams.get('code') as string,
      state: back.searchParams.get('state') as string,
    };
  }

  const complete = (body: { code: string; state: string; binding: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/google/complete',
      payload: body,
      remoteAddress: someAddress(),
    });

  async function signIn(account: { email: string; name: string }, tamper?: IdTokenTamper) {
    const binding = newBinding();
    const { code, state } = await authorize(account, binding);
    if (tamper) t.sandbox?.tamperNextIdToken(tamper);
    return complete({ code, state, binding });
  }

  it('two first sign-ins of one Google account at once make one account, both signed in', async () => {
    const account = { email: uniqueEmail('google-race'), name: 'Grace Hopper' };
    const flows = await Promise.all(
      [newBinding(), newBinding(), newBinding()].map(async (binding) => ({
        binding,
        ...(await authorize(account, binding)),
      })),
    );
    const answers = await Promise.all(flows.map((flow) => complete(flow)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().user.id)).size).toBe(1);
    const stored = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.email, account.email));
    expect(stored).toHaveLength(1);
  });

  it('creates an account on first sign-in and signs the same account in afterwards', async () => {
    const account = { email: uniqueEmail('google'), name: 'Alan Turing' };
    const first = await signIn(account);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      user: { email: account.email, displayName: 'Alan Turing', role: 'researcher' },
    });
    const second = await signIn(account);
    expect(second.json().user.id).toBe(first.json().user.id);
    const profile = await t.app.inject({
      url: '/api/auth/profile',
      headers: bearer(second.json().token),
    });
    expect(profile.json().researcher).toMatchObject({
      firstName: 'Alan',
      lastName: 'Turing',
      status: 'noprofile',
    });
    const [row] = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.email, account.email));
    expect(row?.passwordHash).toBeNull();
    expect(row?.googleSubject).toBeTruthy();
  });

  it('links Google to an existing password account with that address, dropping the unproven password', async () => {
    const existing = await registerUser(
      t.app,
      { displayName: 'Joan Clarke' },
      { confirmed: false },
    );
    const res = await signIn({ email: existing.email, name: 'Joan Clarke' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(existing.user.id);
    // Sessions opened with a password nobody proved to own are ended.
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(existing.token) }))
        .statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: existing.email, password: existing.password },
      remoteAddress: someAddress(),
    });
    expect(login.statusCode).toBe(401);
  });

  it.each<[string, IdTokenTamper]>([
    ['a tampered signature', { corruptSignature: true }],
    ['a token signed by another key', { signWith: 'foreign' }],
    ['an expired token', { expiresInSeconds: -3600 }],
    [
      'a token for another audience',
      { claims: { aud: 'someone-else.apps.googleusercontent.com' } },
    ],
    ['a token with the wrong nonce', { claims: { nonce: 'not-the-nonce-we-sent' } }],
    ['a token from another issuer', { claims: { iss: 'https://evil.example' } }],
  ])('refuses %s', async (_label, tamper) => {
    const email = uniqueEmail('tampered');
    const res = await signIn({ email, name: 'Mallory' }, tamper);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'GOOGLE_SIGN_IN_FAILED',
      message: 'Google sign-in could not be verified. Please try again.',
    });
    expect(await t.app.platform.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('refuses an unverified Google e-mail', async () => {
    const res = await signIn(
      { email: uniqueEmail('unverified'), name: 'Eve' },
      { claims: { email_verified: false } },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your Google account has no verified e-mail address.');
  });

  it('refuses a code relayed to another tab (binding), a reused state, and a state that expired', async () => {
    const account = { email: uniqueEmail('binding'), name: 'Bob' };
    const binding = newBinding();
    const { code, state } = await authorize(account, binding);
    const otherTab = await complete({ code, state, binding: newBinding() });
    expect(otherTab.statusCode).toBe(400);
    expect(otherTab.json().message).toBe('This sign-in attempt has expired. Please try again.');
    // The state is single-use: after any attempt it cannot be replayed, even with the right binding.
    const replay = await complete({ code, state, binding });
    expect(replay.statusCode).toBe(400);

    // A state past its expiry is refused even with the right binding and a fresh code.
    const late = { email: uniqueEmail('late'), name: 'Lea' };
    const lateBinding = newBinding();
    const fresh = await authorize(late, lateBinding);
    await t.app.platform.db
      .update(oauthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthStates.stateHash, sha256Hex(fresh.state)));
    const expired = await complete({ ...fresh, binding: lateBinding });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe('This sign-in attempt has expired. Please try again.');
    expect(await t.app.platform.db.select().from(users).where(eq(users.email, late.email))).toEqual(
      [],
    );
  });

  it('validates the start and complete calls', async () => {
    expect((await t.app.inject({ url: '/api/auth/google/start?binding=short' })).statusCode).toBe(
      400,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/google/complete',
      payload: { code: '', state: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
