import { STUDY_PAGE_SIZE, studiesApi } from '@research/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { STUDY_LIST_KEY } from '../../../lib/update-study';

/** Cache keys of the dashboard lists; every study mutation invalidates `studyKeys.all`. */
export const studyKeys = {
  all: STUDY_LIST_KEY,
  lists: () => [...studyKeys.all, 'list'] as const,
  list: (kind: StudyListKind) => [...studyKeys.lists(), kind] as const,
};

export type StudyListKind = 'owned' | 'collaborative';

const LIST_OPERATIONS = {
  owned: studiesApi.listOwnedStudies,
  collaborative: studiesApi.listCollaborativeStudies,
} as const;

/** One page of a dashboard list: `limit`/`offset` in, `data` and `totalCount` out. */
export async function fetchStudyPage(kind: StudyListKind, offset: number, signal?: AbortSignal) {
  const { data, totalCount } = await callOperation(
    LIST_OPERATIONS[kind],
    { query: { limit: STUDY_PAGE_SIZE, offset } },
    { signal },
  );
  return { data, totalCount };
}

/** Infinite list of 24-card pages; the next offset is the number of cards already loaded. */
export function studyListOptions(kind: StudyListKind) {
  return infiniteQueryOptions({
    queryKey: studyKeys.list(kind),
    queryFn: ({ pageParam, signal }) => fetchStudyPage(kind, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return lastPage.data.length > 0 && loaded < lastPage.totalCount ? loaded : undefined;
    },
  });
}
