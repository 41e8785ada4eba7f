import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { bearer, loginAs, registerUser } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('promoting an account to master', () => {
  const t = useTestApp();

  const login = (email: string, password: string) => loginAs(t.app, email, password);

  it('drops the password, Google link and sessions of an account whose address was never proven', async () => {
    const squatter = await registerUser(
      t.app,
      { email: 'ops-admin@example.org', password: 'squatter-pass' },
      { confirmed: false },
    );
    await t.app.platform.db
      .update(users)
      .set({ googleSubject: 'google-sub-of-squatter' })
      .where(eq(users.id, squatter.user.id));

    const result = await t.app.services.master.createOrPromoteMaster({
      email: 'ops-admin@example.org',
    });
    expect(result).toMatchObject({ created: false, email: 'ops-admin@example.org' });
    expect(result.setPasswordUrl).toMatch(/\/reset-password\?token=/);

    // The registrant's own password no longer signs in, as master or at all.
    expect((await login('ops-admin@example.org', 'squatter-pass')).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(squatter.token) }))
        .statusCode,
    ).toBe(401);
    const [row] = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.id, squatter.user.id));
    expect(row).toMatchObject({ role: 'master', passwordHash: null, googleSubject: null });

    // Only the set-password link opens the account, and following it proves the address.
    const token = new URL(result.setPasswordUrl as string).searchParams.get('token') as string;
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'owner-chosen' },
    });
    expect(set.statusCode).toBe(200);
    const signedIn = await login('ops-admin@example.org', 'owner-chosen');
    expect(signedIn.json().user.role).toBe('master');
  });

  it('keeps the password of an account whose address was proven', async () => {
    const owner = await registerUser(t.app, { password: 'proven-pass' });
    await t.app.services.master.createOrPromoteMaster({ email: owner.email });
    const signedIn = await login(owner.email, 'proven-pass');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.role).toBe('master');
  });
});
