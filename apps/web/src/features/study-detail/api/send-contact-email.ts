import { emailApi, type OperationBody } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

export interface SendContactEmailRequest {
  studyId: string;
  payload: OperationBody<typeof emailApi.sendContactEmail>;
}

/** Mail to chosen participants or collaborators ({audience}). Sent once. */
export function sendContactEmail({ payload }: SendContactEmailRequest) {
  return callOperation(emailApi.sendContactEmail, { body: payload }, { retryAttempts: 1 });
}

export function useSendContactEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendContactEmail,
    onSuccess: (_, { studyId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.emails(studyId) }),
        queryClient.invalidateQueries({ queryKey: studyDetailKeys.stats(studyId) }),
      ]),
  });
}
