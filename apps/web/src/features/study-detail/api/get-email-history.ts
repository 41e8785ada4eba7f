import { emailApi } from '@research/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

export const EMAIL_HISTORY_PAGE_SIZE = 50;

/** One page of mailings, newest first. */
export async function fetchEmailHistory(studyId: string, offset: number, signal?: AbortSignal) {
  const { emails, totalCount } = await callOperation(
    emailApi.getEmailHistory,
    { params: { studyId }, query: { limit: EMAIL_HISTORY_PAGE_SIZE, offset } },
    { signal },
  );
  return { emails, totalCount };
}

/** Pages of 50; the next offset is the number of records already loaded. */
export const emailHistoryOptions = (studyId: string) =>
  infiniteQueryOptions({
    queryKey: studyDetailKeys.emails(studyId),
    queryFn: ({ pageParam, signal }) => fetchEmailHistory(studyId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.emails.length, 0);
      return lastPage.emails.length > 0 && loaded < lastPage.totalCount ? loaded : undefined;
    },
  });

export function useEmailHistory(studyId: string) {
  return useInfiniteQuery(emailHistoryOptions(studyId));
}
