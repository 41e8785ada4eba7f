import { type ExportSummary, exportsApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { exportKeys } from './keys';

export const isExportActive = (e: Pick<ExportSummary, 'status'>) =>
  e.status === 'queued' || e.status === 'running';

export async function fetchExports(studyId: string, signal?: AbortSignal) {
  const { exports } = await callOperation(
    exportsApi.listExports,
    { params: { id: studyId } },
    { signal },
  );
  return exports;
}

/** The study's exports, newest first: polled every 2 s while any is queued or running. */
export function useExports(studyId: string) {
  return useQuery({
    queryKey: exportKeys.list(studyId),
    queryFn: ({ signal }) => fetchExports(studyId, signal),
    refetchInterval: (query) => (query.state.data?.some(isExportActive) ? 2000 : false),
  });
}
