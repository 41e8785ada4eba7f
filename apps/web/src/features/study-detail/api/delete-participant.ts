import { participantsApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { DASHBOARD_STUDIES_KEY, studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface DeleteParticipantRequest {
  studyId: string;
  participantId: string;
}

/** Owner only; soft and audited. */
export async function deleteParticipant({ participantId }: DeleteParticipantRequest) {
  await callOperation(participantsApi.deleteParticipant, { params: { participantId } });
}

export function useDeleteParticipant() {
  return useStudyMutation(deleteParticipant, ({ studyId }) => [
    studyDetailKeys.participants(studyId),
    studyDetailKeys.stats(studyId),
    // The dashboard card counts participants.
    DASHBOARD_STUDIES_KEY,
  ]);
}
