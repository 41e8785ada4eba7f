import { type ExportSummary, exportsApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { exportKeys } from './keys';

export type StartExportRequest = OperationBody<typeof exportsApi.startExport>;

/** Sent once: a retry after a 5xx could start a second export. */
export async function startExport(studyId: string, body: StartExportRequest) {
  const { export: started } = await callOperation(
    exportsApi.startExport,
    { params: { id: studyId }, body },
    { retryAttempts: 1 },
  );
  return started;
}

/** Starts an export; it shows in the list at once, then the list is read again (and polled). */
export function useStartExport(studyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StartExportRequest) => startExport(studyId, body),
    onSuccess: (started) => {
      client.setQueryData<ExportSummary[]>(exportKeys.list(studyId), (list = []) => [
        started,
        ...list.filter((e) => e.id !== started.id),
      ]);
      return client.invalidateQueries({ queryKey: exportKeys.list(studyId) });
    },
  });
}
