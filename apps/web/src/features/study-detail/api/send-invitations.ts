import { emailApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

export interface SendInvitationsRequest {
  studyId: string;
  payload: OperationBody<typeof emailApi.sendInvitations>;
}

/**
 * Every address becomes (or stays) a pending participant 'invited' and the mail is queued. Sent
 * once, so a 5xx after queueing never mails anyone twice.
 */
export function sendInvitations({ payload }: SendInvitationsRequest) {
  return callOperation(emailApi.sendInvitations, { body: payload }, { retryAttempts: 1 });
}

export function useSendInvitations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInvitations,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.pending(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.emails(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
      ]),
  });
}
