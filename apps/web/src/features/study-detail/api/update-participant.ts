import { type OperationBody, type ParticipantDetails, participantsApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

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
  return useStudyMutation(updateParticipant, ({ studyId, participantId }) => [
    studyDetailKeys.participants(studyId),
    studyDetailKeys.participantInfo(studyId, participantId),
  ]);
}
