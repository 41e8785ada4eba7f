import { AUTH_HARDENING_MESSAGES } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { bearer, registerUser } from '../test/auth-helpers.js';
import { useTestApp } from '../test/test-app.js';

const NUL_MESSAGE = 'Text must not contain the null character (U+0000).';

describe('request hardening', () => {
  const t = useTestApp();

  it('answers every API call with Cache-Control: no-store (sign-in, profile, errors)', async () => {
    const account = await registerUser(t.app);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['cache-control']).toBe('no-store');
    const profile = await t.app.inject({
      url: '/api/auth/profile',
      headers: bearer(account.token),
    });
    expect(profile.json().researcher.email).toBe(account.email);
    expect(profile.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ url: '/api/auth/profile' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it.each([
    [
      'register display name',
      'POST',
      '/api/auth/register',
      { email: 'a@example.org', password: 'secret-1', displayName: 'A\u0000' },
    ],
    ['sign-in e-mail', 'POST', '/api/auth/login', { email: 'a\u0000@example.org', password: 'x' }],
    ['join code', 'POST', '/api/auth/join-study', { studyCode: 'AB\u0000CDEF', password: 'x' }],
  ])(
    'refuses U+0000 in the %s with 400 and a clear message',
    async (_name, method, url, payload) => {
      const account = await registerUser(t.app);
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        payload,
        headers: bearer(account.token),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(NUL_MESSAGE);
    },
  );

  it.each([
    [
      'register display name (high half)',
      '/api/auth/register',
      { email: 'b@example.org', password: 'secret-1', displayName: 'Ada \ud800' },
    ],
    [
      'sign-in e-mail (low half)',
      '/api/auth/login',
      { email: 'a\udc00@example.org', password: 'x' },
    ],
    ['join code', '/api/auth/join-study', { studyCode: 'ABCDEF', password: 'x\udbff' }],
    ['key of a body object', '/api/auth/login', { email: 'a@example.org', '\ud83d': 'x' }],
  ])(
    'refuses a lone surrogate in the %s with 400 and a clear message',
    async (_name, url, payload) => {
      const account = await registerUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload,
        headers: bearer(account.token),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'VALIDATION_ERROR',
        message: AUTH_HARDENING_MESSAGES.loneSurrogate,
      });
    },
  );

  it('takes a whole surrogate pair (an emoji) as text', async () => {
    const account = await registerUser(t.app, { displayName: 'Ada \ud83d\ude00' });
    const [row] = await t.app.platform.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row?.displayName).toBe('Ada \u{1F600}');
  });

  it('refuses U+0000 in a query string filter with 400', async () => {
    const res = await t.app.inject({
      url: '/api/admin/researcher-applications?email=a%00b%40example.org',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(NUL_MESSAGE);
  });

  it('refuses U+0000 in multipart application fields, and multipart without a boundary, with 400', async () => {
    const account = await registerUser(t.app);
    const boundary = '----wrp-test';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="firstName"',
      '',
      'Ada\u0000',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const nul = await t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: {
        ...bearer(account.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe(NUL_MESSAGE);
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: { ...bearer(account.token), 'content-type': 'multipart/form-data' },
      payload: body,
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toBe(
      'The upload could not be read: the multipart body has no boundary.',
    );
  });
});
