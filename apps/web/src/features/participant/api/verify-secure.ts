import { enrolmentApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { sessionHeaders } from '../session';

/** The participant's own status (enrolment, Fitbit), to this tab's verified session only. */
export async function verifySecure(body: OperationBody<typeof enrolmentApi.verifySecure>) {
  const result = await callOperation(
    enrolmentApi.verifySecure,
    { body },
    { token: null, headers: sessionHeaders(body.participantId) },
  );
  return result.data;
}
