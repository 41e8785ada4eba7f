import {
  type OperationBody,
  PARTICIPANT_SESSION_HEADER,
  type ParticipantSession,
  wearablesApi,
} from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/**
 * Confirms the connection the exchange stored (no tokens sent), with the session the exchange
 * answered: whether a connection exists is told only to the participant.
 */
export function storeTokens(
  body: OperationBody<typeof wearablesApi.storeTokens>,
  session: ParticipantSession | undefined,
) {
  return callOperation(
    wearablesApi.storeTokens,
    { body },
    {
      token: null,
      headers: session ? { [PARTICIPANT_SESSION_HEADER]: session.sessionId } : {},
    },
  );
}
