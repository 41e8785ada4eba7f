import { type OperationBody, type PendingParticipant, participantsApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface UpdatePendingRequest {
  studyId: string;
  pendingId: string;
  /** The phone; null or blank removes it. */
  changes: OperationBody<typeof participantsApi.updatePendingParticipant>;
}

export async function updatePendingParticipant({
  studyId,
  pendingId,
  changes,
}: UpdatePendingRequest): Promise<PendingParticipant> {
  const response = await callOperation(participantsApi.updatePendingParticipant, {
    params: { id: studyId, pendingId },
    body: changes,
  });
  return response.pendingParticipant;
}

export function useUpdatePendingParticipant() {
  return useStudyMutation(updatePendingParticipant, ({ studyId }) => [
    studyDetailKeys.pending(studyId),
  ]);
}
