import { type OperationInput, participantsApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadOperation } from '../../../lib/api-client';

export type DownloadParticipantDocumentInput = OperationInput<
  typeof participantsApi.downloadParticipantDocument
>['params'] & { fileName: string };

/** The file, for members of the participant's study only, read as a Blob (a PDF stays intact). */
export function fetchParticipantDocument({
  participantId,
  documentId,
}: Omit<DownloadParticipantDocumentInput, 'fileName'>): Promise<Blob> {
  return downloadOperation(participantsApi.downloadParticipantDocument, {
    params: { participantId, documentId },
  });
}

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
  // Revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads a participant's document; changes nothing, so invalidates nothing. */
export function useDownloadParticipantDocument() {
  return useMutation({
    mutationFn: async (input: DownloadParticipantDocumentInput) => {
      saveBlob(await fetchParticipantDocument(input), input.fileName);
    },
  });
}
