import { participantsApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { DASHBOARD_STUDIES_KEY, studyDetailKeys } from './keys';

export interface DeleteParticipantRequest {
  studyId: string;
  participantId: string;
}

/** Owner only; soft and audited. */
export async function deleteParticipant({ participantId }: DeleteParticipantRequest) {
  await callOperation(participantsApi.deleteParticipant, { params: { participantId } });
}

export function useDeleteParticipant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteParticipant,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.participants(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
        // The dashboard card counts participants.
        queryClient.invalidateQueries({ queryKey: DASHBOARD_STUDIES_KEY }),
      ]),
  });
}
