import { participantsApi, type StudyStats } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** The tab counts. */
export async function fetchStudyStats(studyId: string, signal?: AbortSignal): Promise<StudyStats> {
  const response = await callOperation(
    participantsApi.getStudyStats,
    { params: { id: studyId } },
    { signal },
  );
  return response.stats;
}

export const studyStatsOptions = (studyId: string) =>
  queryOptions({
    queryKey: studyDetailKeys.stats(studyId),
    queryFn: ({ signal }) => fetchStudyStats(studyId, signal),
  });

export function useStudyStats(studyId: string, enabled = true) {
  return useQuery({ ...studyStatsOptions(studyId), enabled });
}
