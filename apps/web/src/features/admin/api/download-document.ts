import { applicationsApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadOperation } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

interface DownloadDocumentInput {
  applicationId: string;
  documentId: string;
  /** The name the saved file gets. */
  fileName: string;
}

/** Downloads a verification document; changes nothing on the server, so invalidates nothing. */
export function useDownloadDocument() {
  return useMutation({
    mutationFn: async ({ applicationId, documentId, fileName }: DownloadDocumentInput) => {
      const file = await downloadOperation(applicationsApi.downloadDocument, {
        params: { id: applicationId, documentId },
      });
      saveBlob(file, fileName);
    },
  });
}
