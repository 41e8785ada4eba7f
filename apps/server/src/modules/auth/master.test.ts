import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema/index.js';
import {
  bearer,
  checkResetToken,
  loginAs,
  registerUser,
  uniqueEmail,
} from '../../test/auth-helpers.js';
import { createTestApp, testDatabaseKind, useTestApp } from '../../test/test-app.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../../..');

describe('the master account', () => {
  const t = useTestApp();

  const tokenOf = (link: string) => new URL(link).searchParams.get('token') as string;
  const login = (email: string, password: string) => loginAs(t.app, email, password);

  it('is created once from the set-up link printed at start', async () => {
    const link = await t.app.services.master.ensureSetupLink();
    expect(link).toMatch(/^http:\/\/localhost:3000\/setup\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(link as string);
    const status = await t.app.inject({
      method: 'POST',
      url: '/api/setup/status',
      payload: { token },
    });
    expect(status.json()).toEqual({ success: true, valid: true, masterExists: false });

    const email = uniqueEmail('master');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/setup/master',
      payload: { token, displayName: 'Rosalind Franklin', email, password: 'master-pass' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      user: { email, role: 'master' },
      message: 'Master account created',
    });
    const session = created.json().token as string;

    const profile = await t.app.inject({ url: '/api/auth/profile', headers: bearer(session) });
    expect(profile.json().researcher).toEqual({
      id: 'master',
      email,
      firstName: 'Rosalind',
      lastName: 'Franklin',
      role: 'master',
      status: 'approved',
      institution: null,
      department: null,
      position: null,
      approvedAt: null,
      isMasterAccount: true,
      emailVerified: true,
    });
    expect(
      (
        await t.app.inject({ url: '/api/admin/check-master-status', headers: bearer(session) })
      ).json(),
    ).toEqual({
      success: true,
      isMasterAccount: true,
    });
    expect((await login(email, 'master-pass')).json().user.role).toBe('master');

    // The link is spent, and no new one is made while a master exists.
    const reuse = await t.app.inject({
      method: 'POST',
      url: '/api/setup/master',
      payload: {
        token,
        displayName: 'Someone Else',
        email: uniqueEmail(),
        password: 'another-pass',
      },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe('This set-up link is invalid or has already been used.');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/setup/status', payload: { token } })).json(),
    ).toEqual({
      success: true,
      valid: false,
      masterExists: true,
    });
    expect(await t.app.services.master.ensureSetupLink()).toBeNull();
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'admin.master_created'));
    expect(audit.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a made-up set-up token and validates the form', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/setup/master',
      payload: { token: 'x'.repeat(43), displayName: 'A', email: 'a@b.org', password: 'secret1' },
    });
    expect(bad.statusCode).toBe(400);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/setup/master',
      payload: { token: 'x'.repeat(43), email: 'nope', password: '1' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(
      invalid
        .json()
        .details.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['displayName', 'email', 'password']);
  });

  it('promotes an existing researcher and, without a password, hands out a set-password link', async () => {
    const researcher = await registerUser(t.app);
    const result = await t.app.services.master.createOrPromoteMaster({ email: researcher.email });
    expect(result).toMatchObject({ email: researcher.email, created: false });
    // Earlier sessions do not carry the new powers.
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(researcher.token) }))
        .statusCode,
    ).toBe(401);
    const token = tokenOf(result.setPasswordUrl as string);
    const check = await checkResetToken(t.app, token);
    expect(check.json()).toEqual({
      success: true,
      purpose: 'set_password',
      email: researcher.email,
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'chosen-pass' },
    });
    expect((await login(researcher.email, 'chosen-pass')).json().user.role).toBe('master');
  });

  it('the local admin route answers only with the key from the data folder', async () => {
    if (testDatabaseKind() !== 'pglite') return; // the route exists for the embedded database only
    const key = (await readFile(path.join(t.config.dataDir, 'admin.key'), 'utf8')).trim();
    const payload = { email: uniqueEmail('cli-master'), password: 'cli-pass-1' };
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/local-admin/create-master',
      payload,
      headers: { 'x-admin-key': 'guess' },
      remoteAddress: '127.0.0.1',
    });
    expect(wrong.statusCode).toBe(403);
    const remote = await t.app.inject({
      method: 'POST',
      url: '/api/local-admin/create-master',
      payload,
      headers: { 'x-admin-key': key },
      remoteAddress: '203.0.113.9',
    });
    expect(remote.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/local-admin/create-master',
      payload,
      headers: { 'x-admin-key': key },
      remoteAddress: '127.0.0.1',
    });
    expect(ok.json()).toMatchObject({ success: true, email: payload.email, created: true });
    const spec = await t.app.inject('/api/docs/json');
    expect(Object.keys(spec.json().paths)).not.toContain('/api/local-admin/create-master');
  });
});

describe('npm run admin -- create-master', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/cli/admin.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    });

  it('works while the server holds the database, and validates its arguments', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const env = {
        DATA_DIR: t.config.dataDir,
        PORT: String(port),
        ...(t.config.database.kind === 'postgres' ? { DATABASE_URL: t.config.database.url } : {}),
        ENCRYPTION_KEY: t.config.encryption.key as string,
      };
      const email = uniqueEmail('cli');
      const { stdout } = await cli(
        ['create-master', '--email', email, '--password', 'cli-password'],
        env,
      );
      expect(stdout).toContain(`Created master account ${email}.`);
      const [row] = await t.app.platform.db.select().from(users).where(eq(users.email, email));
      expect(row?.role).toBe('master');

      const linkRun = await cli(['create-master', '--email', uniqueEmail('cli-link')], env);
      expect(linkRun.stdout).toMatch(
        /Choose its password here \(single use, valid 24 hours\):\n\s+http:\/\/localhost:\d+\/reset-password\?token=/,
      );

      await expect(cli(['create-master', '--email', 'not-an-email'], env)).rejects.toMatchObject({
        stderr: expect.stringContaining('--email: Invalid email format'),
      });
    } finally {
      await t.close();
    }
  }, 60_000);
});
