import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, studies } from '../../db/schema/index.js';
import {
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/** The study setting for data a participant deletes in their Google account. */
describe('what a study does with data deleted at the source', () => {
  const t = useTestApp({ withoutSandbox: true });
  let owner: Awaited<ReturnType<typeof researcherWithApplication>>;
  let colleague: Awaited<ReturnType<typeof researcherWithApplication>>;

  beforeAll(async () => {
    const master = await createMaster(t.app);
    owner = await researcherWithApplication(t.app, 'approved', master);
    colleague = await researcherWithApplication(t.app, 'approved', master);
  });

  const create = async (name: string, settings?: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: { name, collaborators: [colleague.email], ...(settings ? { settings } : {}) },
      remoteAddress: someAddress(),
    });
    expect(res.statusCode).toBe(201);
    return res.json().study as { id: string; settings: Record<string, unknown> };
  };
  const put = (token: string, id: string, settings: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/studies/${id}`,
      headers: bearer(token),
      payload: { settings },
    });
  const policy = (id: string) => t.app.services.studies.deletedDataPolicy(id);

  it('keeps the collected copy by default', async () => {
    const study = await create('Keeps by default');
    expect(study.settings.removeDataDeletedAtSource).toBe(false);
    expect(await policy(study.id)).toBe('keep');
  });

  it('is changed by the owner only, read back everywhere, and the change is audited', async () => {
    const study = await create('Removes on request');
    expect(
      (await put(colleague.token, study.id, { removeDataDeletedAtSource: true })).statusCode,
    ).toBe(403);
    const changed = await put(owner.token, study.id, { removeDataDeletedAtSource: true });
    expect(changed.statusCode).toBe(200);
    // The other settings stay as they were.
    expect(changed.json().study.settings).toEqual({
      allowSelfEnrollment: false,
      requireVerification: true,
      dataRetentionDays: 365,
      removeDataDeletedAtSource: true,
      validDayMinHours: 10,
      riskNoSyncDays: 2,
      reminderNoSyncDays: null,
      consentRequired: true,
      withdrawalData: 'keep',
    });
    const detail = await t.app.inject({
      url: `/api/studies/${study.id}`,
      headers: bearer(colleague.token),
    });
    expect(detail.json().study.settings.removeDataDeletedAtSource).toBe(true);
    const listed = await t.app.inject({
      url: '/api/auth/researcher-studies',
      headers: bearer(owner.token),
    });
    const card = listed.json().data.find((s: { id: string }) => s.id === study.id);
    expect(card.settings.removeDataDeletedAtSource).toBe(true);
    expect(await policy(study.id)).toBe('remove');

    const audit = await t.app.platform.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, study.id), eq(auditEvents.action, 'study.updated')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: owner.user.id,
      details: { fields: ['settings'], settings: { removeDataDeletedAtSource: true } },
    });

    await put(owner.token, study.id, { removeDataDeletedAtSource: false });
    expect(await policy(study.id)).toBe('keep');
  });

  it('may be chosen when the study is created', async () => {
    const study = await create('Removes from the start', { removeDataDeletedAtSource: true });
    expect(study.settings.removeDataDeletedAtSource).toBe(true);
    expect(await policy(study.id)).toBe('remove');
  });

  it('reads as keep for a study created before the setting, once migrated, and for no study', async () => {
    const study = await create('Older study');
    const db = t.app.platform.db;
    await db
      .update(studies)
      .set({ settings: sql`${studies.settings} - 'removeDataDeletedAtSource'` })
      .where(eq(studies.id, study.id));
    expect(await policy(study.id)).toBe('keep');
    const migration = readFileSync(
      new URL('../../../drizzle/0014_study-deleted-data-policy.sql', import.meta.url),
      'utf8',
    );
    await db.execute(sql.raw(migration));
    const [row] = await db.select().from(studies).where(eq(studies.id, study.id));
    expect(row?.settings).toEqual({
      allowSelfEnrollment: false,
      requireVerification: true,
      dataRetentionDays: 365,
      removeDataDeletedAtSource: false,
      validDayMinHours: 10,
      riskNoSyncDays: 2,
      reminderNoSyncDays: null,
      consentRequired: true,
      withdrawalData: 'keep',
    });
    expect(await policy('00000000-0000-4000-8000-000000000000')).toBe('keep');
    expect(await policy('not-a-study')).toBe('keep');
  });
});
