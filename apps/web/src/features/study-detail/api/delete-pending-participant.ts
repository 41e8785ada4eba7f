import { participantsApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePendingParticipant,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.pending(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
      ]),
  });
}
