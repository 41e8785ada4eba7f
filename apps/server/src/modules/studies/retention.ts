import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { studies } from '../../db/schema/index.js';
import { defineJob } from '../../platform/jobs.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import { studyBucket } from './studies.service.js';

export interface RetentionDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  /** Revokes the study's wearable grants at the provider before its rows go. */
  revokeWearables?: (studyId: string) => Promise<unknown>;
}

/**
 * A deleted study keeps its data for its retention period (settings.dataRetentionDays), then
 * this removes its files and its rows (members, invitations and participants go with it).
 * Each study on its own: one that cannot be finished (a wearable grant Google did not revoke,
 * a storage failure) stays for the next run and the others are still purged; the run then
 * fails with every such reason, so the job is retried. Returns how many studies were purged.
 */
export async function purgeExpiredStudies(
  { db, config, objectStore, revokeWearables }: RetentionDeps,
  now = new Date(),
): Promise<number> {
  const expired = await db
    .select({ id: studies.id })
    .from(studies)
    .where(
      and(
        isNotNull(studies.deletedAt),
        lt(
          sql`${studies.deletedAt} + make_interval(days => (${studies.settings}->>'dataRetentionDays')::int)`,
          now,
        ),
      ),
    );
  let purged = 0;
  const failures: unknown[] = [];
  for (const { id } of expired) {
    try {
      await purgeStudy({ db, config, objectStore, revokeWearables }, id);
      purged++;
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(
      failures,
      `${failures.length} of ${expired.length} expired studies kept for the next run (${purged} purged): ${failures.map((f) => (f instanceof Error ? f.message : String(f))).join('; ')}`,
    );
  }
  return purged;
}

async function purgeStudy(
  { db, config, objectStore, revokeWearables }: RetentionDeps,
  id: string,
): Promise<void> {
  // A grant left at Google would outlive the data: if any is left, the study waits.
  if (revokeWearables) await revokeWearables(id);
  const bucket = studyBucket(config, id);
  // Files first: if this stops half-way, the row is still there and the next run finishes.
  for (;;) {
    const page = await objectStore
      .listObjects(bucket, { limit: 500 })
      .catch(() => ({ objects: [] }));
    if (page.objects.length === 0) break;
    for (const object of page.objects) await objectStore.deleteObject(bucket, object.key);
  }
  await db.transaction(async (tx) => {
    await tx.delete(studies).where(eq(studies.id, id));
    await recordAudit(tx, {
      actorId: null,
      studyId: id,
      action: 'study.purged',
      targetType: 'study',
      targetId: id,
    });
  });
}

/** Runs the purge once a day (03:17 UTC). */
export const createRetentionJob = (deps: RetentionDeps) =>
  defineJob<object>({
    name: 'purge-deleted-studies',
    retryLimit: 3,
    retryDelaySeconds: 300,
    concurrency: 1,
    cron: '17 3 * * *',
    handler: async () => {
      await purgeExpiredStudies(deps);
    },
  });
