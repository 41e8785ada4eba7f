import type { SuccessOnly } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export interface RejectApplicationInput {
  applicationId: string;
  /** Required (000 §5); the server answers 400 when it is blank. */
  reviewNotes: string;
}

/** PUT /api/admin/researcher-applications/{id}/review {action: 'reject', reviewNotes}. */
export function rejectApplication({
  applicationId,
  reviewNotes,
}: RejectApplicationInput): Promise<SuccessOnly> {
  // The body of reviewApplicationSchema.
  const body: { action: 'reject'; reviewNotes: string } = {
    action: 'reject',
    reviewNotes: reviewNotes.trim(),
  };
  return apiRequest<SuccessOnly>(
    `/api/admin/researcher-applications/${encodeURIComponent(applicationId)}/review`,
    { method: 'PUT', body },
  );
}

/** Rejecting moves a row from pending to rejected: every count and list changes. */
export function useRejectApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
