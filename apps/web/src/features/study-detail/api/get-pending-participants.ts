import { type PendingParticipantListQuery, participantsApi } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** One page of the study's pending participants, sorted and searched on the server. */
export async function fetchPendingParticipants(
  studyId: string,
  query: PendingParticipantListQuery,
  signal?: AbortSignal,
) {
  const { pendingParticipants, totalCount } = await callOperation(
    participantsApi.listPendingParticipants,
    { params: { id: studyId }, query },
    { signal },
  );
  return { pendingParticipants, totalCount };
}

export const pendingParticipantsOptions = (studyId: string, query: PendingParticipantListQuery) =>
  queryOptions({
    queryKey: [...studyDetailKeys.pending(studyId), query] as const,
    queryFn: ({ signal }) => fetchPendingParticipants(studyId, query, signal),
    placeholderData: keepPreviousData,
  });

export function usePendingParticipants(studyId: string, query: PendingParticipantListQuery) {
  return useQuery(pendingParticipantsOptions(studyId, query));
}
