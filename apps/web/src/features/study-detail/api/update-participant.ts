import { type OperationBody, type ParticipantDetails, participantsApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

export interface UpdateParticipantRequest {
  studyId: string;
  participantId: string;
  /** firstName, lastName, participantEmail and the study's code. */
  changes: OperationBody<typeof participantsApi.updateParticipant>;
}

export async function updateParticipant({
  participantId,
  changes,
}: UpdateParticipantRequest): Promise<ParticipantDetails> {
  const response = await callOperation(participantsApi.updateParticipant, {
    params: { participantId },
    body: changes,
  });
  return response.participant;
}

export function useUpdateParticipant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateParticipant,
    onSuccess: (_, { studyId, participantId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.participants(studyId) }),
        queryClient.invalidateQueries({
          queryKey: studyDetailKeys.participantInfo(studyId, participantId),
        }),
      ]),
  });
}
