import { participantsApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { DASHBOARD_STUDIES_KEY, studyDetailKeys } from './keys';

export interface RemoveMemberRequest {
  studyId: string;
  userId: string;
}

/** Owner only: the collaborator loses access. */
export async function removeMember({ studyId, userId }: RemoveMemberRequest): Promise<void> {
  await callOperation(participantsApi.removeMember, { params: { id: studyId, userId } });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.members(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
        // The dashboard card lists the collaborators.
        queryClient.invalidateQueries({ queryKey: DASHBOARD_STUDIES_KEY }),
      ]),
  });
}
