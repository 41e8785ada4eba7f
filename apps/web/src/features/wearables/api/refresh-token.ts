import { wearablesApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { wearableKeys } from './keys';

/** Refreshes the grant now, as a researcher of the study (bearer token). */
export function refreshToken(participantId: string) {
  return callOperation(
    wearablesApi.refreshToken,
    { body: { participantId } },
    { retryAttempts: 1 },
  );
}

export function useRefreshToken(studyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshToken,
    // A failed refresh can change the row too (marked for reauthorization); the participants
    // tab shows the status as well.
    onSettled: () => queryClient.invalidateQueries({ queryKey: wearableKeys.study(studyId) }),
  });
}
