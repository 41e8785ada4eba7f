import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, sessions, users } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  registerUser,
  someAddress,
  uniqueEmail,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('sign-up, sign-in and sessions', () => {
  const t = useTestApp();

  it('registers a researcher: 201 with token, user and message; the password is stored as argon2id', async () => {
    const email = uniqueEmail();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: `  ${email.toUpperCase()} `,
        password: 'secret1',
        displayName: 'Grace Hopper',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: 'Account created successfully',
      user: { email, displayName: 'Grace Hopper', photoURL: null, role: 'researcher' },
    });
    expect(body.user.uid).toBe(body.user.id);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.app.platform.db.select().from(users).where(eq(users.email, email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    // Only the token's hash is stored.
    const stored = await t.app.platform.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, body.user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).not.toBe(body.token);
  });

  it('refuses a second account with the same address (any case) with 409', async () => {
    const { email } = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: email.toUpperCase(), password: 'another1', displayName: 'Someone' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'EMAIL_IN_USE',
      message: 'An account with this email already exists',
    });
  });

  it('five sign-ups with one address at the same moment: one 201, four 409 with the product’s text, one account', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          // Case differs too: the address is one account whatever its spelling.
          payload: {
            email: i % 2 ? email.toUpperCase() : email,
            password: 'secret-1',
            displayName: 'Racer',
          },
          remoteAddress: someAddress(),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.statusCode === 409))
      expect(answer.json()).toMatchObject({
        success: false,
        code: 'EMAIL_IN_USE',
        message: 'An account with this email already exists',
      });
    const stored = await t.app.platform.db.select().from(users).where(eq(users.email, email));
    expect(stored).toHaveLength(1);
  });

  it.each([
    ['missing fields', {}, ['email', 'password', 'displayName']],
    ['a short password', { email: 'a@b.org', password: '12345', displayName: 'A' }, ['password']],
    [
      'wrong types',
      { email: 42, password: ['x'], displayName: null },
      ['email', 'password', 'displayName'],
    ],
    [
      'oversized strings',
      { email: 'a@b.org', password: 'x'.repeat(257), displayName: 'n'.repeat(101) },
      ['password', 'displayName'],
    ],
    [
      'a malformed e-mail',
      { email: 'not an email', password: 'secret1', displayName: 'A' },
      ['email'],
    ],
  ])('refuses a sign-up with %s (400, each field named)', async (_label, payload, fields) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(
      [...fields].sort(),
    );
  });

  it('gives the short-password rule the product’s text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'a@b.org', password: '12345', displayName: 'A' },
    });
    expect(res.json().details.fields[0].message).toBe('Password must be at least 6 characters');
  });

  it('signs in with the right password and records the last login', async () => {
    const account = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Signed in successfully',
      user: { email: account.email },
    });
    const [row] = await t.app.platform.db
      .select()
      .from(users)
      .where(eq(users.email, account.email));
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorId, account.user.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['auth.register', 'auth.sign_in']),
    );
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const account = await registerUser(t.app);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: 'wrong-password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail('nobody'), password: 'wrong-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({
      success: false,
      code: 'INVALID_CREDENTIALS',
      error: 'Invalid email or password',
      message: 'Invalid email or password',
    });
  });

  it('refuses an empty password with the product’s text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.org', password: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields).toEqual([
      { field: 'password', message: 'Please fill in all fields' },
    ]);
  });

  it('verifies a token and returns the server copy of the user; refuses a bad one', async () => {
    const account = await registerUser(t.app, { displayName: 'Katherine Johnson' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-token',
      payload: { token: account.token },
    });
    expect(ok.json()).toEqual({ success: true, user: account.user });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-token',
      payload: { token: 'not-a-real-token' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ success: false, code: 'SESSION_EXPIRED' });
  });

  it('returns the profile: a researcher without an application is noprofile', async () => {
    const account = await registerUser(t.app, { displayName: 'Mary  Jackson Smith' });
    const res = await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) });
    expect(res.json()).toEqual({
      success: true,
      researcher: {
        id: account.user.id,
        email: account.email,
        firstName: 'Mary',
        lastName: 'Jackson Smith',
        role: 'researcher',
        status: 'noprofile',
        institution: null,
        department: null,
        position: null,
        approvedAt: null,
        isMasterAccount: false,
        emailVerified: true,
      },
    });
    const master = await t.app.inject({
      url: '/api/admin/check-master-status',
      headers: bearer(account.token),
    });
    expect(master.json()).toEqual({ success: true, isMasterAccount: false });
  });

  it.each([
    ['GET', '/api/auth/profile'],
    ['GET', '/api/admin/check-master-status'],
    ['POST', '/api/auth/logout'],
  ] as const)('%s %s needs a session: 401 without or with a bad token', async (method, url) => {
    const none = await t.app.inject({ method, url });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Authentication required',
    });
    const bad = await t.app.inject({ method, url, headers: bearer('forged-token-value') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'SESSION_EXPIRED' });
  });

  it('signing out revokes only that session', async () => {
    const account = await registerUser(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    });
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(account.token),
    });
    expect(out.json()).toEqual({ success: true });
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(account.token) })).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(second.json().token) }))
        .statusCode,
    ).toBe(200);
  });

  it('ends a session after the idle time and after its absolute end', async () => {
    const idle = await registerUser(t.app);
    const db = t.app.platform.db;
    const idleMinutes = t.config.sessions.idleMinutes;
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (idleMinutes + 1) * 60_000) })
      .where(eq(sessions.userId, idle.user.id));
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(idle.token) })).statusCode,
    ).toBe(401);

    const old = await registerUser(t.app);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, old.user.id));
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(old.token) })).statusCode,
    ).toBe(401);

    // A session used within the idle time stays alive.
    const active = await registerUser(t.app);
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (idleMinutes - 5) * 60_000) })
      .where(eq(sessions.userId, active.user.id));
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(active.token) })).statusCode,
    ).toBe(200);
  });
});

describe('sign-in throttling', () => {
  const t = useTestApp();

  const login = (email: string, password: string, ip = '198.51.100.7') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress: ip,
    });

  it('locks an account at one address after 5 failures there, even for the right password, with when to retry', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 5; i++)
      expect((await login(account.email, 'wrong-password', '203.0.113.5')).statusCode).toBe(401);
    const locked = await login(account.email, account.password, '203.0.113.5');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(locked.json().message).toMatch(
      /^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/,
    );
  });

  it('does not lock the owner out from their own address after failures elsewhere', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 6; i++) await login(account.email, 'wrong-password', '203.0.113.66');
    expect((await login(account.email, 'wrong-password', '203.0.113.66')).statusCode).toBe(429);
    // The owner, somewhere else, still signs in.
    expect((await login(account.email, account.password, '198.51.100.77')).statusCode).toBe(200);
  });

  /** 51 wrong passwords spread over 11 addresses: 5 from each of ten, 1 from the eleventh. */
  async function guessFromElevenAddresses(email: string, net: number) {
    for (let i = 0; i < 51; i++)
      expect(
        (await login(email, 'wrong-password', `10.${net}.${Math.floor(i / 5)}.1`)).statusCode,
      ).toBe(401);
  }

  it('51 wrong passwords from 11 addresses do not lock the owner out of their own address', async () => {
    const account = await registerUser(t.app);
    await guessFromElevenAddresses(account.email, 9);
    const owner = await login(account.email, account.password, '198.51.100.90');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe(account.email);
  });

  it('nor the master', async () => {
    const master = await createMaster(t.app);
    await guessFromElevenAddresses(master.email, 10);
    const owner = await login(master.email, 'master-password', '198.51.100.91');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.role).toBe('master');
  });

  it('past 50 attempts on an account, an address already guessing it waits 5 minutes per try; a new one is heard', async () => {
    const account = await registerUser(t.app);
    await guessFromElevenAddresses(account.email, 11);
    // The eleventh address has tried once: its next try is due one cooldown after its first.
    const slowed = await login(account.email, 'wrong-password', '10.11.10.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message: 'Too many failed sign-in attempts. Please try again in 5 minutes.',
    });
    // Asking again does not push the wait further out.
    expect((await login(account.email, account.password, '10.11.10.1')).json().message).toBe(
      'Too many failed sign-in attempts. Please try again in 5 minutes.',
    );
    // An address that has not tried the account yet gets its answer (here: a wrong password).
    expect((await login(account.email, 'wrong-password', '10.11.20.1')).statusCode).toBe(401);
  });

  it('past the ceiling, the wait named is never longer than what is left of the address’s window', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 4; i++)
      expect((await login(account.email, 'wrong-password', '10.12.99.1')).statusCode).toBe(401);
    // 47 more from elsewhere (5 each from nine addresses, then two new ones): 51 in all.
    for (let i = 0; i < 47; i++)
      expect(
        (await login(account.email, 'wrong-password', `10.12.${i < 45 ? Math.floor(i / 5) : i}.1`))
          .statusCode,
      ).toBe(401);
    // A fifth try would be due four cooldowns (20 minutes) in, but the window ends at 15.
    const slowed = await login(account.email, 'wrong-password', '10.12.99.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toMatch(
      /^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/,
    );
  });

  it('counts parallel attempts before checking the password: 25 at once get 5 answers of 401', async () => {
    const account = await registerUser(t.app);
    // 25 stays under the route's 30-a-minute rate limit, so every refusal here is the throttle's.
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => login(account.email, 'wrong-password', '203.0.113.25')),
    );
    expect(answers.filter((answer) => answer.statusCode === 401)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(20);
    for (const answer of refused) expect(answer.json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('40 parallel wrong passwords: at most 5 are checked, the rest get 429', async () => {
    const account = await registerUser(t.app);
    const statuses = (
      await Promise.all(
        Array.from({ length: 40 }, () => login(account.email, 'wrong-password', '203.0.113.40')),
      )
    ).map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(35);
  });

  it('refuses a right guess made among parallel wrong ones once over the limit', async () => {
    const account = await registerUser(t.app);
    const wrong = Array.from({ length: 24 }, () =>
      login(account.email, 'wrong-password', '203.0.113.24'),
    );
    const right = login(account.email, account.password, '203.0.113.24');
    const answers = await Promise.all([...wrong, right]);
    // Only 5 attempts reach the password check; the right one succeeds only if it is among them.
    expect(answers.filter((answer) => answer.statusCode !== 429)).toHaveLength(5);
    const rightAnswer = answers[24];
    if (rightAnswer?.statusCode === 200)
      expect(answers.slice(0, 24).filter((a) => a.statusCode === 401)).toHaveLength(4);
    else expect(rightAnswer?.json().code).toBe('TOO_MANY_ATTEMPTS');
    // Once over the limit, the right password is refused too.
    const after = await login(account.email, account.password, '203.0.113.24');
    expect(after.statusCode).toBe(429);
    expect(after.json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('locks an address after 20 failures across accounts; other addresses still sign in', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 20; i++)
      expect((await login(uniqueEmail('guess'), 'nope-nope', '192.0.2.50')).statusCode).toBe(401);
    expect((await login(account.email, account.password, '192.0.2.50')).statusCode).toBe(429);
    expect((await login(account.email, account.password, '192.0.2.51')).statusCode).toBe(200);
  });

  it('a successful sign-in clears the account’s failures', async () => {
    const account = await registerUser(t.app);
    for (let i = 0; i < 4; i++) await login(account.email, 'wrong-password', '198.51.100.20');
    expect((await login(account.email, account.password, '198.51.100.20')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await login(account.email, 'wrong-password', '198.51.100.20');
    expect((await login(account.email, account.password, '198.51.100.20')).statusCode).toBe(200);
  });
});
