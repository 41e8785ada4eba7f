import type { Db } from '../../db/client.js';
import { findLiveApplicationOfUser } from '../applications/index.js';
import { findUserById } from '../auth/index.js';
import { findLiveStudy, findLiveStudyWithRole } from './studies.repository.js';

/** What a signed storage link may still do: its study gone, its account no longer let in, or fine. */
export type LinkAccess = 'study-deleted' | 'not-a-member' | 'allowed';

/**
 * Whether the account a storage link was issued to may still use it: the study must be live and
 * the account a member of it and an approved researcher, as the study routes require. The three
 * look-ups (study and role, account, application) are independent, so they go out together.
 */
export async function linkAccessOf(
  db: Db,
  studyId: string,
  userId: string | null,
): Promise<LinkAccess> {
  if (!userId) return (await findLiveStudy(db, studyId)) ? 'not-a-member' : 'study-deleted';
  const [access, user, application] = await Promise.all([
    findLiveStudyWithRole(db, studyId, userId),
    findUserById(db, userId),
    findLiveApplicationOfUser(db, userId),
  ]);
  if (!access) return 'study-deleted';
  if (!access.role || user?.role !== 'researcher' || application?.status !== 'approved')
    return 'not-a-member';
  return 'allowed';
}
