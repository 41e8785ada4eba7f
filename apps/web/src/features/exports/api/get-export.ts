import { exportsApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { exportKeys } from './keys';

/**
 * One export with its files, asked for when its file list is opened. A completed export does not
 * change any more, so it is not polled.
 */
export function useExportFiles(studyId: string, exportId: string, enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.one(studyId, exportId),
    enabled,
    queryFn: ({ signal }) =>
      callOperation(exportsApi.getExport, { params: { id: studyId, exportId } }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
