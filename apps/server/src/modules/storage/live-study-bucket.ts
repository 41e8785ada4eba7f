import { BUCKET_PAGE_TEXTS } from '@research/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { researcherApplications, studies, studyMembers, users } from '../../db/schema/index.js';
import { AppError } from '../../errors.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const STUDY_BUCKET = new RegExp(`^study-(${UUID})-data$`);
const USER_ID = new RegExp(`^${UUID}$`);

/**
 * Signed links outlive the page that made them. On every use, the study must still exist and the
 * account the link was issued to must still be a member of it (an approved researcher, as the
 * study routes require): a deleted study or a removed collaborator stops a link at once, not
 * when it expires. Buckets that name no study are left to the signature check.
 */
export async function assertBucketAccess(
  db: Db,
  config: AppConfig,
  bucket: string,
  userId: string | undefined,
) {
  const prefix = config.storage.driver === 's3' ? config.storage.bucketPrefix : '';
  if (!bucket.startsWith(prefix)) return;
  const studyId = STUDY_BUCKET.exec(bucket.slice(prefix.length))?.[1];
  if (!studyId) return;
  const member = userId && USER_ID.test(userId) ? userId : null;
  const [row] = await db
    .select({
      role: studyMembers.role,
      accountRole: users.role,
      application: researcherApplications.status,
    })
    .from(studies)
    .leftJoin(
      studyMembers,
      // A link without an account matches no member.
      and(
        eq(studyMembers.studyId, studies.id),
        member ? eq(studyMembers.userId, member) : isNull(studyMembers.userId),
      ),
    )
    .leftJoin(users, eq(users.id, studyMembers.userId))
    .leftJoin(
      researcherApplications,
      and(eq(researcherApplications.userId, users.id), isNull(researcherApplications.archivedAt)),
    )
    .where(and(eq(studies.id, studyId), isNull(studies.deletedAt)));
  if (!row) throw new AppError(404, 'STUDY_DELETED', BUCKET_PAGE_TEXTS.studyDeleted);
  if (!row.role || row.accountRole !== 'researcher' || row.application !== 'approved')
    throw new AppError(403, 'NOT_A_MEMBER', BUCKET_PAGE_TEXTS.notAMember);
}
