import type { SuccessOnly } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

/**
 * PUT /api/admin/researcher-applications/{id}/reset: a rejected application leaves the rejected
 * list and its owner may apply again (000 §4).
 */
export function resetApplication(applicationId: string): Promise<SuccessOnly> {
  return apiRequest<SuccessOnly>(
    `/api/admin/researcher-applications/${encodeURIComponent(applicationId)}/reset`,
    { method: 'PUT' },
  );
}

export function useResetApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
