import { enrolmentApi, type OperationBody } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { sessionHeaders } from '../session';

/**
 * Direct enrolment (with the session once the e-mail code is verified). Sent once: a retry after
 * a 5xx could send a second code.
 */
export function enrollDirect(
  body: OperationBody<typeof enrolmentApi.enrollDirect>,
  participantId?: string,
) {
  return callOperation(
    enrolmentApi.enrollDirect,
    { body },
    {
      token: null,
      headers: participantId ? sessionHeaders(participantId) : {},
      retryAttempts: 1,
    },
  );
}
