import { type OperationBody, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Sends a 6-digit code to the participant's e-mail; each call sends one, so no retry. */
export function sendEmailCode(body: OperationBody<typeof verificationApi.sendEmailCode>) {
  return callOperation(verificationApi.sendEmailCode, { body }, { token: null, retryAttempts: 1 });
}
