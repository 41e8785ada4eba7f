import { extractionApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { extractionKeys } from './keys';

/** One job with its tasks, and the run's files once it is finished. */
export function fetchExtractionJob(studyId: string, jobId: string, signal?: AbortSignal) {
  return callOperation(
    extractionApi.getExtractionJob,
    { params: { id: studyId, jobId } },
    { signal },
  );
}

/**
 * The details dialog: polled every 2 s while it is open and something is still to come — the
 * job's progress, then the run's files, which are written once every job of the run finished
 * (a job may finish before its run does).
 */
export function useExtractionJobDetail(studyId: string, jobId: string | null) {
  return useQuery({
    queryKey: extractionKeys.job(studyId, jobId ?? ''),
    enabled: jobId !== null,
    queryFn: ({ signal }) => fetchExtractionJob(studyId, jobId ?? '', signal),
    refetchInterval: (query) => {
      const data = query.state.data;
      const active = data?.job.status === 'pending' || data?.job.status === 'running';
      return data && (active || data.runFiles.length === 0) ? 2000 : false;
    },
  });
}
