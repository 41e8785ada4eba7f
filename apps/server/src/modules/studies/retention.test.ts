import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, studies, studyMembers } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';
import { purgeExpiredStudies } from './retention.js';

describe('retention of deleted studies', () => {
  const t = useTestApp();
  let owner: { token: string };
  beforeAll(async () => {
    owner = await researcherWithApplication(t.app, 'approved', await createMaster(t.app));
  });

  async function deletedStudy(retentionDays: number, deletedDaysAgo: number) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: {
        name: `Retention ${retentionDays}/${deletedDaysAgo}`,
        settings: {
          allowSelfEnrollment: false,
          requireVerification: true,
          dataRetentionDays: retentionDays,
        },
      },
      remoteAddress: someAddress(),
    });
    const id = created.json().study.id as string;
    await t.app.platform.objectStore.putObject(
      `study-${id}-data`,
      'profile/P0000000000000001.json',
      '{}',
    );
    await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/delete-study/${id}`,
      headers: bearer(owner.token),
    });
    await t.app.platform.db
      .update(studies)
      .set({ deletedAt: new Date(Date.now() - deletedDaysAgo * 86_400_000) })
      .where(eq(studies.id, id));
    return id;
  }

  it('keeps a deleted study for its retention period, then removes its files and rows', async () => {
    const kept = await deletedStudy(30, 29);
    const expired = await deletedStudy(30, 31);
    const deps = {
      db: t.app.platform.db,
      config: t.config,
      objectStore: t.app.platform.objectStore,
    };

    expect(await purgeExpiredStudies(deps)).toBe(1);
    expect(await t.app.platform.db.select().from(studies).where(eq(studies.id, expired))).toEqual(
      [],
    );
    expect(
      await t.app.platform.db.select().from(studyMembers).where(eq(studyMembers.studyId, expired)),
    ).toEqual([]);
    expect((await t.app.platform.objectStore.listObjects(`study-${expired}-data`)).objects).toEqual(
      [],
    );
    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, expired));
    expect(audit.map((a) => a.action)).toContain('study.purged');

    expect(await t.app.platform.db.select().from(studies).where(eq(studies.id, kept))).toHaveLength(
      1,
    );
    expect(
      (await t.app.platform.objectStore.listObjects(`study-${kept}-data`)).objects,
    ).toHaveLength(1);
  });

  it('never touches a study that was not deleted, however old, while purging deleted ones', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: { name: 'Never deleted', settings: { dataRetentionDays: 1 } },
      remoteAddress: someAddress(),
    });
    const live = created.json().study.id as string;
    await t.app.platform.objectStore.putObject(`study-${live}-data`, 'profile/P1.json', '{}');
    await t.app.platform.db
      .update(studies)
      .set({ createdAt: new Date(Date.now() - 3650 * 86_400_000) })
      .where(eq(studies.id, live));
    const deleted = await deletedStudy(1, 0);
    const deps = {
      db: t.app.platform.db,
      config: t.config,
      objectStore: t.app.platform.objectStore,
    };
    // Ten years on, every deleted study is past its retention; the live one must still stay.
    const later = new Date(Date.now() + 3650 * 86_400_000);
    expect(await purgeExpiredStudies(deps, later)).toBeGreaterThanOrEqual(1);
    expect(await t.app.platform.db.select().from(studies).where(eq(studies.id, deleted))).toEqual(
      [],
    );
    expect(await t.app.platform.db.select().from(studies).where(eq(studies.id, live))).toHaveLength(
      1,
    );
    expect(
      (await t.app.platform.objectStore.listObjects(`study-${live}-data`)).objects,
    ).toHaveLength(1);
  });

  it('is scheduled daily in the job queue', async () => {
    const schedules = await t.app.platform.jobs.boss.getSchedules();
    expect(schedules).toContainEqual(
      expect.objectContaining({ name: 'purge-deleted-studies', cron: '17 3 * * *' }),
    );
  });
});
