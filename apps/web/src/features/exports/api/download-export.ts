import { exportsApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadOperation } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/**
 * The whole ZIP is read under the client's timer: a large export takes far longer than the 30 s
 * of an ordinary call.
 */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

export interface DownloadExportInput {
  studyId: string;
  exportId: string;
  fileName: string;
}

/**
 * The completed export's ZIP, read with the session's Bearer token (a plain link could not send
 * it) and handed to the browser as a file. Changes nothing, so invalidates nothing.
 */
export function useDownloadExport() {
  return useMutation({
    mutationFn: async ({ studyId, exportId, fileName }: DownloadExportInput) => {
      const archive = await downloadOperation(
        exportsApi.downloadExport,
        {
          params: { id: studyId, exportId },
        },
        { timeoutMs: DOWNLOAD_TIMEOUT_MS },
      );
      saveBlob(archive, fileName);
    },
  });
}
