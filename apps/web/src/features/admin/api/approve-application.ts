import { applicationsApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

type ApproveApplicationInput = { applicationId: string } & NonNullable<
  OperationBody<typeof applicationsApi.approveApplication>
>;

/** Approves a pending application with optional notes (blank notes are not sent); 409 when not pending. */
function approveApplication({ applicationId, reviewNotes }: ApproveApplicationInput) {
  const notes = reviewNotes?.trim();
  return callOperation(applicationsApi.approveApplication, {
    params: { id: applicationId },
    body: notes ? { reviewNotes: notes } : {},
  });
}

/** Approving moves a row from pending to approved: every count and list changes. */
export function useApproveApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
