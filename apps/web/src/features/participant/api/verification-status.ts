import { type OperationInput, verificationApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

type StatusInput = OperationInput<typeof verificationApi.getVerificationStatus>;

/** The verification status record of 001 §3 (which steps are done), for the start step. */
export async function verificationStatus({
  participantId,
  ...query
}: StatusInput['params'] & StatusInput['query']) {
  const result = await callOperation(
    verificationApi.getVerificationStatus,
    { params: { participantId }, query },
    { token: null },
  );
  return result.data;
}
