import { type WearableAuthorizationsQuery, wearablesApi } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { wearableKeys } from './keys';

/** One page of the study's participants with their authorization (members only). */
export function fetchWearableAuthorizations(
  studyId: string,
  page: WearableAuthorizationsQuery,
  signal?: AbortSignal,
) {
  return callOperation(
    wearablesApi.listWearableAuthorizations,
    { params: { id: studyId }, query: page },
    { signal },
  );
}

export const wearableAuthorizationsOptions = (studyId: string, page: WearableAuthorizationsQuery) =>
  queryOptions({
    queryKey: [...wearableKeys.authorizations(studyId), page] as const,
    queryFn: ({ signal }) => fetchWearableAuthorizations(studyId, page, signal),
    placeholderData: keepPreviousData,
  });

export function useWearableAuthorizations(studyId: string, page: WearableAuthorizationsQuery) {
  return useQuery(wearableAuthorizationsOptions(studyId, page));
}
