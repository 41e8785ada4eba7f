import { extractionApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { extractionKeys } from './keys';

/** One run for all selected participants. Sent once: a retry would start a second run. */
export function startExtraction(input: OperationBody<typeof extractionApi.extractParticipantData>) {
  return callOperation(extractionApi.extractParticipantData, { body: input }, { retryAttempts: 1 });
}

export function useStartExtraction(studyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startExtraction,
    onSuccess: () => client.invalidateQueries({ queryKey: extractionKeys.jobs(studyId) }),
  });
}
