import { emailApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

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
  return useStudyMutation(sendInvitations, ({ studyId }) => [
    studyDetailKeys.pending(studyId),
    studyDetailKeys.emails(studyId),
    studyDetailKeys.stats(studyId),
  ]);
}
