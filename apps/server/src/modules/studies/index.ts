/** Study lookups for the participant pages, which name a study by id or by its code. */

export { liveStudies } from './live-studies.js';
export { createRetentionJob, purgeExpiredStudies } from './retention.js';
export {
  findLiveStudy,
  findLiveStudyByCode,
  type MemberRole,
  membershipOf,
  type StudyRow,
} from './studies.repository.js';
export { studiesRoutes as routes } from './studies.routes.js';
export {
  createStudiesService,
  type DeletedDataPolicy,
  type StudiesService,
  type StudyAccess,
  studyBucket,
} from './studies.service.js';
export { requireApprovedResearcher, requireStudyMember, studyAccessOf } from './study-access.js';
export { type LinkAccess, linkAccessOf } from './study-link-access.js';
export { listStudyTeam, removeCollaborator } from './study-team.repository.js';
