import { type OperationInput, PARTICIPANT_SESSION_HEADER, wearablesApi } from '@research/contracts';
import { callOperation } from '../api-client';

/**
 * The consent URL, asked for as the participant. With the participant session the enrolment
 * issues (`session`) it connects; without one, e-mail and study code only reconnect the Google
 * account already connected (reauthorization). `clientBinding` is the SHA-256 of this browser's
 * verifier.
 */
export function fetchAuthUrl(
  query: OperationInput<typeof wearablesApi.getAuthUrl>['query'],
  session?: string | undefined,
) {
  return callOperation(
    wearablesApi.getAuthUrl,
    { query },
    {
      token: null,
      ...(session ? { headers: { [PARTICIPANT_SESSION_HEADER]: session } } : {}),
    },
  );
}
