import { type OperationBody, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Sends a 6-digit code by SMS to the number on record; each call sends one, so no retry. */
export function sendPhoneCode(body: OperationBody<typeof verificationApi.sendPhoneCode>) {
  return callOperation(verificationApi.sendPhoneCode, { body }, { token: null, retryAttempts: 1 });
}
