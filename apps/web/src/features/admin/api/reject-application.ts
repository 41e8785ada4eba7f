import { applicationsApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

type RejectApplicationInput = { applicationId: string } & Pick<
  OperationBody<typeof applicationsApi.rejectApplication>,
  'reviewNotes'
>;

/** Rejects a pending application; the reason is required, the server answers 400 when blank. */
function rejectApplication({ applicationId, reviewNotes }: RejectApplicationInput) {
  return callOperation(applicationsApi.rejectApplication, {
    params: { id: applicationId },
    body: { action: 'reject', reviewNotes: reviewNotes.trim() },
  });
}

/** Rejecting moves a row from pending to rejected: every count and list changes. */
export function useRejectApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectApplication,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
