import { AUTH_SERVER_MESSAGES, STUDY_MESSAGES } from '@research/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions, studies } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';
import { NOT_APPROVED_MESSAGE } from './study-access.js';

/**
 * `requireStudyMember` reads the session and the study together: its answers must stay those of
 * `requireUser` followed by the membership check, session upkeep included.
 */
describe('study member guard', () => {
  const t = useTestApp();
  let master: { token: string };
  let owner: { token: string; user: { id: string } };
  let studyId: string;

  const newStudy = async (token: string) => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(token),
      payload: { name: 'Guarded study', password: 'guard-pass' },
      remoteAddress: someAddress(),
    });
    return created.json().study.id as string;
  };
  const get = (url: string, token?: string) =>
    t.app.inject({ url, ...(token ? { headers: bearer(token) } : {}) });

  beforeAll(async () => {
    master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    studyId = await newStudy(owner.token);
  });

  it('answers 401 without a token and for an unknown token', async () => {
    const anonymous = await get(`/api/studies/${studyId}/participants`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const unknown = await get(`/api/studies/${studyId}/participants`, 'not-a-session');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: AUTH_SERVER_MESSAGES.sessionExpired,
    });
  });

  it('revokes an idle or expired session on a study route (401 SESSION_EXPIRED)', async () => {
    const db = t.app.platform.db;
    const idleMinutes = t.config.sessions.idleMinutes;
    for (const change of [
      { lastSeenAt: new Date(Date.now() - (idleMinutes + 1) * 60_000) },
      { expiresAt: new Date(Date.now() - 1000) },
    ]) {
      const member = await researcherWithApplication(t.app, 'approved', master);
      const own = await newStudy(member.token);
      await db.update(sessions).set(change).where(eq(sessions.userId, member.user.id));
      const res = await get(`/api/studies/${own}/participants`, member.token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'SESSION_EXPIRED' });
      const [row] = await db.select().from(sessions).where(eq(sessions.userId, member.user.id));
      expect(row?.revokedAt).not.toBeNull();
      // Revoked for good: putting the clock back does not bring it back.
      await db
        .update(sessions)
        .set({ lastSeenAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) })
        .where(eq(sessions.userId, member.user.id));
      expect((await get(`/api/studies/${own}`, member.token)).statusCode).toBe(401);
    }
  });

  it('notes the session as seen once the touch interval has passed', async () => {
    const db = t.app.platform.db;
    const member = await researcherWithApplication(t.app, 'approved', master);
    const own = await newStudy(member.token);
    const before = new Date(Date.now() - 5 * 60_000);
    await db
      .update(sessions)
      .set({ lastSeenAt: before })
      .where(eq(sessions.userId, member.user.id));
    expect((await get(`/api/studies/${own}/participants`, member.token)).statusCode).toBe(200);
    const [row] = await db.select().from(sessions).where(eq(sessions.userId, member.user.id));
    expect(row?.lastSeenAt.getTime()).toBeGreaterThan(before.getTime());
  });

  it('answers 403 NOT_APPROVED to pending researchers and the master, before the study', async () => {
    const pending = await researcherWithApplication(t.app, 'pending');
    for (const token of [pending.token, master.token]) {
      for (const id of [studyId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await get(`/api/studies/${id}/participants`, token);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'NOT_APPROVED', message: NOT_APPROVED_MESSAGE });
      }
    }
  });

  it('answers 404 for an unknown, malformed or deleted study and 403 to a non-member', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await get(`/api/studies/${id}/participants`, owner.token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'STUDY_NOT_FOUND',
        message: STUDY_MESSAGES.notFound,
      });
    }
    const outsider = await researcherWithApplication(t.app, 'approved', master);
    const refused = await get(`/api/studies/${studyId}/participants`, outsider.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'NOT_A_MEMBER',
      message: 'You are not a member of this study.',
    });

    const doomed = await newStudy(owner.token);
    await t.app.platform.db
      .update(studies)
      .set({ deletedAt: new Date() })
      .where(eq(studies.id, doomed));
    const gone = await get(`/api/studies/${doomed}/participants`, owner.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'STUDY_NOT_FOUND' });
  });

  it('gives a member the study with their role', async () => {
    const own = await get(`/api/studies/${studyId}`, owner.token);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ study: { id: studyId, role: 'main' } });
  });
});
