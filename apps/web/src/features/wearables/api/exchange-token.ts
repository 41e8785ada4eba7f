import { type OperationBody, wearablesApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/**
 * The PKCE path. The server exchanges the code and keeps the tokens; the answer carries only
 * user_id and scope. Sent once: a code is single-use.
 */
export function exchangeToken(body: OperationBody<typeof wearablesApi.exchangeToken>) {
  return callOperation(wearablesApi.exchangeToken, { body }, { token: null, retryAttempts: 1 });
}
