import { type OperationInput, participantsApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { downloadOperation } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

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

/** Downloads a participant's document; changes nothing, so invalidates nothing. */
export function useDownloadParticipantDocument() {
  return useMutation({
    mutationFn: async (input: DownloadParticipantDocumentInput) => {
      saveBlob(await fetchParticipantDocument(input), input.fileName);
    },
  });
}
