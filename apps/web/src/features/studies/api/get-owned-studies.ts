import { useInfiniteQuery } from '@tanstack/react-query';
import { fetchStudyPage, studyListOptions } from './study-list';

const PATH = '/api/auth/researcher-studies';

/** GET /api/auth/researcher-studies?limit=&offset=: studies the signed-in researcher owns. */
export const fetchOwnedStudies = (offset = 0, signal?: AbortSignal) =>
  fetchStudyPage(PATH, offset, signal);

export const ownedStudiesOptions = () => studyListOptions('owned', PATH);

export function useOwnedStudies(enabled = true) {
  return useInfiniteQuery({ ...ownedStudiesOptions(), enabled });
}
