import { type OperationBody, wearablesApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** The direct path: the state names the participant. Sent once: a code is single-use. */
export function completeCallback(body: OperationBody<typeof wearablesApi.completeCallback>) {
  return callOperation(wearablesApi.completeCallback, { body }, { token: null, retryAttempts: 1 });
}
