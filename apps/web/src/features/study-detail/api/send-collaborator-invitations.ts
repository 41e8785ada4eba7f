import { emailApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

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
  return useStudyMutation(sendCollaboratorInvitations, ({ studyId }) => [
    studyDetailKeys.emails(studyId),
    studyDetailKeys.stats(studyId),
  ]);
}
