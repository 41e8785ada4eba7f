/**
 * Cache keys of the study screen. Everything of one study sits under `studyDetailKeys.study(id)`,
 * so Refresh reloads every tab with one invalidation; mutations invalidate the narrowest keys
 * that their change can reach (a list plus the tab counts).
 */
export const studyDetailKeys = {
  all: ['study-detail'] as const,
  study: (studyId: string) => [...studyDetailKeys.all, studyId] as const,
  summary: (studyId: string) => [...studyDetailKeys.study(studyId), 'summary'] as const,
  stats: (studyId: string) => [...studyDetailKeys.study(studyId), 'stats'] as const,
  participants: (studyId: string) => [...studyDetailKeys.study(studyId), 'participants'] as const,
  participantInfo: (studyId: string, participantId: string) =>
    [...studyDetailKeys.study(studyId), 'participant-info', participantId] as const,
  pending: (studyId: string) => [...studyDetailKeys.study(studyId), 'pending'] as const,
  members: (studyId: string) => [...studyDetailKeys.study(studyId), 'members'] as const,
  emails: (studyId: string) => [...studyDetailKeys.study(studyId), 'emails'] as const,
  emailDetails: (studyId: string, emailId: string) =>
    [...studyDetailKeys.study(studyId), 'email', emailId] as const,
};

/** The dashboard's cache root: a change of name or participants must refresh the cards. */
export { STUDY_LIST_KEY as DASHBOARD_STUDIES_KEY } from '../../../lib/update-study';

/** Rows per page of the participant and pending tables. */
export const STUDY_DETAIL_PAGE_SIZES = [10, 25, 50] as const;
