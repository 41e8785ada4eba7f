import { type OperationBody, wearablesApi } from '@research/contracts';
import { callOperation } from '../api-client';

/** Participant id + e-mail → the participant's study code (the reauthorization page). */
export function verifyParticipant(body: OperationBody<typeof wearablesApi.verifyParticipant>) {
  return callOperation(wearablesApi.verifyParticipant, { body }, { token: null });
}
