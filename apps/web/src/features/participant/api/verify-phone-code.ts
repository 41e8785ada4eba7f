import { type OperationBody, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Checks the SMS code; a success answers the status and a participant session. */
export function verifyPhoneCode(body: OperationBody<typeof verificationApi.verifyPhoneCode>) {
  return callOperation(
    verificationApi.verifyPhoneCode,
    { body },
    { token: null, retryAttempts: 1 },
  );
}
