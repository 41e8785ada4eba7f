import { type ParticipantListQuery, participantsApi } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** One page of the study's participants, sorted and searched on the server. */
export async function fetchParticipants(
  studyId: string,
  query: ParticipantListQuery,
  signal?: AbortSignal,
) {
  const { participants, totalCount } = await callOperation(
    participantsApi.listParticipants,
    { params: { id: studyId }, query },
    { signal },
  );
  return { participants, totalCount };
}

export const participantsOptions = (studyId: string, query: ParticipantListQuery) =>
  queryOptions({
    queryKey: [...studyDetailKeys.participants(studyId), query] as const,
    queryFn: ({ signal }) => fetchParticipants(studyId, query, signal),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useParticipants(studyId: string, query: ParticipantListQuery, enabled = true) {
  return useQuery({ ...participantsOptions(studyId, query), enabled });
}
