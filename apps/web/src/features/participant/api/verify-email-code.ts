import { type OperationBody, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Checks the e-mail code; a success answers the status and a participant session. */
export function verifyEmailCode(body: OperationBody<typeof verificationApi.verifyEmailCode>) {
  return callOperation(
    verificationApi.verifyEmailCode,
    { body },
    { token: null, retryAttempts: 1 },
  );
}
