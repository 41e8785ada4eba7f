import { BUCKET_PAGE_TEXTS } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const STUDY_BUCKET = new RegExp(`^study-(${UUID})-data$`);
const USER_ID = new RegExp(`^${UUID}$`);

/**
 * Whether an account may still use a link of a study (the studies module answers: it owns the
 * studies and their members). Passed in, since the studies module builds on this one.
 */
export type StudyLinkAccess = (
  studyId: string,
  userId: string | null,
) => Promise<'study-deleted' | 'not-a-member' | 'allowed'>;

/** The study a bucket belongs to, or undefined for a bucket of no study. */
export function studyOfBucket(config: AppConfig, bucket: string): string | undefined {
  const prefix = config.storage.driver === 's3' ? config.storage.bucketPrefix : '';
  if (!bucket.startsWith(prefix)) return undefined;
  return STUDY_BUCKET.exec(bucket.slice(prefix.length))?.[1];
}

/**
 * Signed links outlive the page that made them. On every use, the study must still exist and the
 * account the link was issued to must still be a member of it (an approved researcher, as the
 * study routes require): a deleted study or a removed collaborator stops a link at once, not
 * when it expires. Buckets that name no study are left to the signature check.
 */
export async function assertBucketAccess(
  linkAccess: StudyLinkAccess,
  config: AppConfig,
  bucket: string,
  userId: string | undefined,
) {
  const studyId = studyOfBucket(config, bucket);
  if (!studyId) return;
  // A link without an account (or with a malformed one) matches no member.
  const member = userId && USER_ID.test(userId) ? userId : null;
  const access = await linkAccess(studyId, member);
  if (access === 'study-deleted')
    throw new AppError(404, 'STUDY_DELETED', BUCKET_PAGE_TEXTS.studyDeleted);
  if (access === 'not-a-member')
    throw new AppError(403, 'NOT_A_MEMBER', BUCKET_PAGE_TEXTS.notAMember);
}
