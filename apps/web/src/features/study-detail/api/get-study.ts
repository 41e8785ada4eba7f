import { type Study, studiesApi } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** The study for its members (404 unknown or deleted, 403 non-member). */
export async function fetchStudy(studyId: string, signal?: AbortSignal): Promise<Study> {
  const response = await callOperation(
    studiesApi.getStudy,
    { params: { id: studyId } },
    { signal },
  );
  return response.study;
}

export const studyOptions = (studyId: string) =>
  queryOptions({
    queryKey: studyDetailKeys.summary(studyId),
    queryFn: ({ signal }) => fetchStudy(studyId, signal),
  });

export function useStudy(studyId: string, enabled = true) {
  return useQuery({ ...studyOptions(studyId), enabled });
}
