import { type ParticipantListQuery, participantsApi } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** How often an open Participants tab asks again (each device's last sync, latest day). */
export const PARTICIPANTS_REFETCH_MS = 30_000;

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
    // Devices sync by themselves: an open screen shows their last sync and data without a
    // reload, asking again only while it is visible.
    refetchInterval: PARTICIPANTS_REFETCH_MS,
    refetchIntervalInBackground: false,
  });

export function useParticipants(studyId: string, query: ParticipantListQuery, enabled = true) {
  return useQuery({ ...participantsOptions(studyId, query), enabled });
}
