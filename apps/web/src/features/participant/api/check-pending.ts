import { enrolmentApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Whether the address is on the study's roster (the pre-approved flow). */
export function checkPending(body: OperationBody<typeof enrolmentApi.checkPending>) {
  return callOperation(enrolmentApi.checkPending, { body }, { token: null });
}
