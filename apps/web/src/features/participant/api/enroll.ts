import { enrolmentApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { sessionHeaders } from '../session';

/** The pre-approved flow, after a verified code: enrols with this tab's session. */
export function enroll(body: OperationBody<typeof enrolmentApi.enroll>) {
  return callOperation(
    enrolmentApi.enroll,
    { body },
    { token: null, headers: sessionHeaders(body.participantId), retryAttempts: 1 },
  );
}
