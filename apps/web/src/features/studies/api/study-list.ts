import { STUDY_PAGE_SIZE, type Study } from '@research/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Cache keys of the dashboard lists; every study mutation invalidates `studyKeys.all`. */
export const studyKeys = {
  all: ['studies'] as const,
  lists: () => [...studyKeys.all, 'list'] as const,
  list: (kind: StudyListKind) => [...studyKeys.lists(), kind] as const,
};

export type StudyListKind = 'owned' | 'collaborative';

export interface StudyPage {
  data: Study[];
  totalCount: number;
}

interface StudyListResponse extends StudyPage {
  success: boolean;
}

/** One page of a dashboard list: `limit`/`offset` in, `data` and `totalCount` out. */
export async function fetchStudyPage(
  path: string,
  offset: number,
  signal?: AbortSignal,
): Promise<StudyPage> {
  const query = new URLSearchParams({ limit: String(STUDY_PAGE_SIZE), offset: String(offset) });
  const response = await apiRequest<StudyListResponse>(`${path}?${query}`, { signal });
  return { data: response.data ?? [], totalCount: response.totalCount ?? 0 };
}

/** Infinite list of 24-card pages; the next offset is the number of cards already loaded. */
export function studyListOptions(kind: StudyListKind, path: string) {
  return infiniteQueryOptions({
    queryKey: studyKeys.list(kind),
    queryFn: ({ pageParam, signal }) => fetchStudyPage(path, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.data.length, 0);
      return lastPage.data.length > 0 && loaded < lastPage.totalCount ? loaded : undefined;
    },
  });
}
