import { adherenceApi } from '@research/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adherenceKeys } from './keys';

/** Whether the signed-in member gets the study's daily digest. */
export function useDigestPreference(studyId: string, enabled = true) {
  return useQuery({
    queryKey: adherenceKeys.digest(studyId),
    queryFn: async ({ signal }) =>
      (
        await callOperation(
          adherenceApi.getDigestPreference,
          { params: { id: studyId } },
          { signal },
        )
      ).enabled,
    enabled,
  });
}

/** The member's own choice; the cache holds the answer. */
export function useSetDigestPreference(studyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enabled: boolean) =>
      (
        await callOperation(adherenceApi.setDigestPreference, {
          params: { id: studyId },
          body: { enabled },
        })
      ).enabled,
    onSuccess: (enabled) => queryClient.setQueryData(adherenceKeys.digest(studyId), enabled),
  });
}
