import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { studies } from '../../db/schema/index.js';
import { defineJob } from '../../platform/jobs.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/audit.service.js';
import { studyBucket } from './studies.service.js';

export interface RetentionDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
}

/**
 * A deleted study keeps its data for its retention period (settings.dataRetentionDays), then
 * this removes its files and its rows (members, invitations and participants go with it).
 * Returns how many studies were purged.
 */
export async function purgeExpiredStudies(
  { db, config, objectStore }: RetentionDeps,
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
  for (const { id } of expired) {
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
        action: 'study.purged',
        targetType: 'study',
        targetId: id,
      });
    });
  }
  return expired.length;
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
