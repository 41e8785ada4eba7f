import { applicationsApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadOperation } from '../../../lib/api-client';

interface DownloadDocumentInput {
  applicationId: string;
  documentId: string;
  /** The name the saved file gets. */
  fileName: string;
}

/** Hands the Blob to the browser as a download through a temporary object URL. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
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
