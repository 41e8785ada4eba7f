import { useInfiniteQuery } from '@tanstack/react-query';
import { fetchStudyPage, studyListOptions } from './study-list';

const PATH = '/api/auth/collaborative-studies';

/** GET /api/auth/collaborative-studies?limit=&offset=: studies the researcher collaborates on. */
export const fetchCollaborativeStudies = (offset = 0, signal?: AbortSignal) =>
  fetchStudyPage(PATH, offset, signal);

export const collaborativeStudiesOptions = () => studyListOptions('collaborative', PATH);

export function useCollaborativeStudies(enabled = true) {
  return useInfiniteQuery({ ...collaborativeStudiesOptions(), enabled });
}
