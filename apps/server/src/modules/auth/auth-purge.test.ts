import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  authFailures,
  oauthStates,
  oneTimeTokens,
  sendCounters,
  sessions,
  signInAttempts,
} from '../../db/schema/index.js';
import { purgeSendCounters } from '../../platform/send-counters.js';
import { registerUser } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';
import { createAuthPurgeJob, purgeExpiredAuthData } from './auth-purge.js';

describe('purge of expired sign-in data', () => {
  const t = useTestApp();

  it('removes expired states, counters, failures, sessions and links, and keeps live ones', async () => {
    const db = t.app.platform.db;
    const user = await registerUser(t.app);
    const now = new Date();
    const past = new Date(now.getTime() - 60 * 60_000);
    const future = new Date(now.getTime() + 60 * 60_000);
    const tag = randomUUID();
    const state = (name: string, expiresAt: Date) => ({
      purpose: 'google_sign_in' as const,
      stateHash: `${tag}-${name}`,
      codeVerifierEncrypted: 'x',
      expiresAt,
    });
    await db.insert(oauthStates).values([state('old', past), state('live', future)]);
    await db.insert(authFailures).values([
      { scope: 'study_join', keyHash: `${tag}-old`, createdAt: past },
      { scope: 'study_join', keyHash: `${tag}-live`, createdAt: now },
    ]);
    await db.insert(signInAttempts).values([
      { scope: 'pair', keyHash: `${tag}-old`, attempts: 3, windowStartedAt: past },
      { scope: 'pair', keyHash: `${tag}-live`, attempts: 3, windowStartedAt: now },
    ]);
    await db.insert(sessions).values([
      { userId: user.user.id, tokenHash: `${tag}-expired`, expiresAt: past },
      { userId: user.user.id, tokenHash: `${tag}-revoked`, expiresAt: future, revokedAt: now },
      // Unused for longer than the idle limit: ended, although not yet expired.
      {
        userId: user.user.id,
        tokenHash: `${tag}-idle`,
        expiresAt: future,
        lastSeenAt: new Date(now.getTime() - t.config.sessions.idleMinutes * 60_000 - 60_000),
      },
      { userId: user.user.id, tokenHash: `${tag}-live`, expiresAt: future },
    ]);
    await db.insert(oneTimeTokens).values([
      { purpose: 'reset_password', tokenHash: `${tag}-old`, userId: user.user.id, expiresAt: past },
      {
        purpose: 'reset_password',
        tokenHash: `${tag}-live`,
        userId: user.user.id,
        expiresAt: future,
      },
    ]);

    const removed = await purgeExpiredAuthData({ db, config: t.config }, now);
    expect(removed).toMatchObject({
      oauthStates: 1,
      authFailures: 1,
      signInAttempts: 1,
      oneTimeTokens: 1,
    });
    expect(removed.sessions).toBeGreaterThanOrEqual(3);

    const hashes = async <T extends { [k: string]: unknown }>(rows: Promise<T[]>, key: keyof T) =>
      (await rows).map((row) => String(row[key])).filter((value) => value.startsWith(tag));
    expect(await hashes(db.select().from(oauthStates), 'stateHash')).toEqual([`${tag}-live`]);
    expect(await hashes(db.select().from(authFailures), 'keyHash')).toEqual([`${tag}-live`]);
    expect(await hashes(db.select().from(signInAttempts), 'keyHash')).toEqual([`${tag}-live`]);
    expect(await hashes(db.select().from(sessions), 'tokenHash')).toEqual([`${tag}-live`]);
    expect(await hashes(db.select().from(oneTimeTokens), 'tokenHash')).toEqual([`${tag}-live`]);
    // The account's own sign-up session is live and stays.
    const own = await db.select().from(sessions).where(eq(sessions.userId, user.user.id));
    expect(own.length).toBe(2);
  });

  it('removes mail-limit counters past the longest window (a day) and keeps the others', async () => {
    const db = t.app.platform.db;
    const now = new Date();
    const tag = randomUUID();
    await db.insert(sendCounters).values([
      {
        scope: 'invitation_content',
        keyHash: `${tag}-old`,
        count: 1,
        windowStartedAt: new Date(now.getTime() - 25 * 60 * 60_000),
      },
      {
        scope: 'invitation_content',
        keyHash: `${tag}-live`,
        count: 1,
        windowStartedAt: new Date(now.getTime() - 23 * 60 * 60_000),
      },
    ]);
    expect(await purgeSendCounters(db, now)).toBeGreaterThanOrEqual(1);
    const left = await db.select().from(sendCounters);
    expect(left.map((row) => row.keyHash).filter((key) => key.startsWith(tag))).toEqual([
      `${tag}-live`,
    ]);
  });

  it('runs on a schedule', () => {
    expect(createAuthPurgeJob({ db: t.app.platform.db, config: t.config }).cron).toBe('23 * * * *');
  });
});
