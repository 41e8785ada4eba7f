import { type ExtractionJob, extractionApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { extractionKeys } from './keys';

export async function fetchExtractionJobs(studyId: string, signal?: AbortSignal) {
  const { jobs } = await callOperation(
    extractionApi.listExtractionJobs,
    { params: { id: studyId } },
    { signal },
  );
  return jobs;
}

const active = (jobs: ExtractionJob[] | undefined) =>
  jobs?.some((j) => j.status === 'pending' || j.status === 'running') ?? false;

/** The jobs list: polled every 2 s while any job is pending or running. */
export function useExtractionJobs(studyId: string) {
  return useQuery({
    queryKey: extractionKeys.jobs(studyId),
    queryFn: ({ signal }) => fetchExtractionJobs(studyId, signal),
    refetchInterval: (query) => (active(query.state.data) ? 2000 : false),
  });
}
