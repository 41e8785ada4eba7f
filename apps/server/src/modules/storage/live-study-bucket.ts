import { BUCKET_PAGE_TEXTS } from '@research/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { studies } from '../../db/schema/index.js';
import { AppError } from '../../errors.js';

const STUDY_BUCKET = /^study-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-data$/;

/**
 * Signed links outlive the page that made them; a study deleted since must not keep serving
 * its files until the link expires. Buckets that name no study are left to the signature check.
 */
export async function assertBucketOfLiveStudy(db: Db, config: AppConfig, bucket: string) {
  const prefix = config.storage.driver === 's3' ? config.storage.bucketPrefix : '';
  if (!bucket.startsWith(prefix)) return;
  const studyId = STUDY_BUCKET.exec(bucket.slice(prefix.length))?.[1];
  if (!studyId) return;
  const [live] = await db
    .select({ id: studies.id })
    .from(studies)
    .where(and(eq(studies.id, studyId), isNull(studies.deletedAt)));
  if (!live) throw new AppError(404, 'STUDY_DELETED', BUCKET_PAGE_TEXTS.studyDeleted);
}
