import { participantsApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { DASHBOARD_STUDIES_KEY, studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface RemoveMemberRequest {
  studyId: string;
  userId: string;
}

/** Owner only: the collaborator loses access. */
export async function removeMember({ studyId, userId }: RemoveMemberRequest): Promise<void> {
  await callOperation(participantsApi.removeMember, { params: { id: studyId, userId } });
}

export function useRemoveMember() {
  return useStudyMutation(removeMember, ({ studyId }) => [
    studyDetailKeys.members(studyId),
    studyDetailKeys.stats(studyId),
    // The dashboard card lists the collaborators.
    DASHBOARD_STUDIES_KEY,
  ]);
}
