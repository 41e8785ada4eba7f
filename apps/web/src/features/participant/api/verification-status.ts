import { type OperationInput, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { sessionHeaders } from '../session';

type StatusInput = OperationInput<typeof verificationApi.getVerificationStatus>;

/** The verification status record (which steps are done), for the start step. */
export async function verificationStatus({
  participantId,
  ...query
}: StatusInput['params'] & StatusInput['query']) {
  const result = await callOperation(
    verificationApi.getVerificationStatus,
    { params: { participantId }, query },
    // The real record only to the participant's session; anyone else gets 'none'.
    { token: null, headers: sessionHeaders(participantId) },
  );
  return result.data;
}
