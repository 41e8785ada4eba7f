import type { SuccessOnly } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export interface ApproveApplicationInput {
  applicationId: string;
  /** Optional; blank notes are not sent. */
  reviewNotes?: string;
}

/** POST /api/admin/researcher-applications/{id}/approve {reviewNotes?}; 409 when not pending. */
export function approveApplication({
  applicationId,
  reviewNotes,
}: ApproveApplicationInput): Promise<SuccessOnly> {
  const notes = reviewNotes?.trim();
  // The body of approveApplicationSchema.
  const body: { reviewNotes?: string } = notes ? { reviewNotes: notes } : {};
  return apiRequest<SuccessOnly>(
    `/api/admin/researcher-applications/${encodeURIComponent(applicationId)}/approve`,
    { method: 'POST', body },
  );
}

/** Approving moves a row from pending to approved: every count and list changes. */
export function useApproveApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
