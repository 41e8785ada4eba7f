import { applicationsApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

/**
 * A rejected application leaves the rejected list and its owner may apply again.
 */
function resetApplication(applicationId: string) {
  return callOperation(applicationsApi.resetApplication, { params: { id: applicationId } });
}

export function useResetApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
