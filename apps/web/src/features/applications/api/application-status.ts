import { APPLICATION_MESSAGES, AUTH_MESSAGES, applicationsApi } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/**
 * A failure the status page names with a spec text ('No authentication token
 * available', 'Invalid application status'); any other failure reads 'Failed to load rejection
 * details' there.
 */
export class ApplicationStatusError extends Error {
  override readonly name = 'ApplicationStatusError';
}

const operation = applicationsApi.getApplicationStatus;

/** The signed-in user's current application, or null. */
async function getApplicationStatus(token: string | null, signal?: AbortSignal) {
  if (!token) throw new ApplicationStatusError(AUTH_MESSAGES.noAuthToken);
  // Checked against the contract: an answer without a valid status is the product's own failure.
  const parsed = operation.response.safeParse(
    await callOperation(operation, {}, { token, signal }),
  );
  if (!parsed.success) throw new ApplicationStatusError(APPLICATION_MESSAGES.invalidStatus);
  return parsed.data.application;
}

export const applicationStatusKey = ['applications', 'status'] as const;

function applicationStatusQueryOptions(token: string | null) {
  return queryOptions({
    // Per session, so a different account signing in on this tab never sees the last one's
    // application; a submission invalidates every entry under the prefix.
    queryKey: [...applicationStatusKey, token],
    queryFn: ({ signal }) => getApplicationStatus(token, signal),
    // The review can change at any moment; always ask again when the page opens.
    staleTime: 0,
  });
}

export function useApplicationStatus(token: string | null, enabled = true) {
  return useQuery({ ...applicationStatusQueryOptions(token), enabled });
}
