import { emailApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

export interface SendCollaboratorInvitationsRequest {
  studyId: string;
  payload: OperationBody<typeof emailApi.sendCollaboratorInvitations>;
}

/**
 * The server adds the study code, the password and the join link; the browser never sends or
 * receives the password here. Sent once: a retry after the mail was queued would send it twice.
 */
export function sendCollaboratorInvitations({ payload }: SendCollaboratorInvitationsRequest) {
  return callOperation(
    emailApi.sendCollaboratorInvitations,
    { body: payload },
    { retryAttempts: 1 },
  );
}

export function useSendCollaboratorInvitations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendCollaboratorInvitations,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.emails(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
      ]),
  });
}
