import { type OperationBody, wearablesApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** Confirms the connection the exchange stored (no tokens sent). */
export function storeTokens(body: OperationBody<typeof wearablesApi.storeTokens>) {
  return callOperation(wearablesApi.storeTokens, { body }, { token: null });
}
