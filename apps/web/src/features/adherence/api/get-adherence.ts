import { type AdherenceResponse, adherenceApi } from '@research/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adherenceKeys } from './keys';

/** The heat map of a study over [from, to] (civil days, inclusive). */
export async function fetchAdherence(
  studyId: string,
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<AdherenceResponse> {
  return callOperation(
    adherenceApi.getAdherence,
    { params: { id: studyId }, query: { from, to } },
    { signal },
  );
}

export function useAdherence(studyId: string, from: string, to: string, enabled = true) {
  return useQuery({
    queryKey: adherenceKeys.heatMap(studyId, from, to),
    queryFn: ({ signal }) => fetchAdherence(studyId, from, to, signal),
    enabled,
    // A new range keeps the old map on screen until its answer arrives.
    placeholderData: keepPreviousData,
  });
}
