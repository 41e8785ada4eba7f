import { participantsApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface DeletePendingRequest {
  studyId: string;
  pendingId: string;
}

export async function deletePendingParticipant({ studyId, pendingId }: DeletePendingRequest) {
  await callOperation(participantsApi.deletePendingParticipant, {
    params: { id: studyId, pendingId },
  });
}

export function useDeletePendingParticipant() {
  return useStudyMutation(deletePendingParticipant, ({ studyId }) => [
    studyDetailKeys.pending(studyId),
    studyDetailKeys.stats(studyId),
  ]);
}
