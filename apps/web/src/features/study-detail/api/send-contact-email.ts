import { emailApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface SendContactEmailRequest {
  studyId: string;
  payload: OperationBody<typeof emailApi.sendContactEmail>;
}

/** Mail to chosen participants or collaborators ({audience}). Sent once. */
export function sendContactEmail({ payload }: SendContactEmailRequest) {
  return callOperation(emailApi.sendContactEmail, { body: payload }, { retryAttempts: 1 });
}

export function useSendContactEmail() {
  return useStudyMutation(sendContactEmail, ({ studyId }) => [
    studyDetailKeys.emails(studyId),
    studyDetailKeys.stats(studyId),
  ]);
}
