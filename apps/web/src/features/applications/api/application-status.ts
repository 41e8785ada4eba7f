import {
  APPLICATION_MESSAGES,
  AUTH_MESSAGES,
  applicationStatusResponseSchema,
  type ResearcherApplicationView,
} from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * A failure the status page names with a spec text of 000 §8 ('No authentication token
 * available', 'Invalid application status'); any other failure reads 'Failed to load rejection
 * details' there.
 */
export class ApplicationStatusError extends Error {
  override readonly name = 'ApplicationStatusError';
}

/** GET /api/auth/application-status: the signed-in user's current application, or null. */
export async function getApplicationStatus(
  token: string | null,
  signal?: AbortSignal,
): Promise<ResearcherApplicationView | null> {
  if (!token) throw new ApplicationStatusError(AUTH_MESSAGES.noAuthToken);
  const response = await apiRequest<unknown>('/api/auth/application-status', { token, signal });
  const parsed = applicationStatusResponseSchema.safeParse(response);
  if (!parsed.success) throw new ApplicationStatusError(APPLICATION_MESSAGES.invalidStatus);
  return parsed.data.application;
}

export const applicationStatusKey = ['applications', 'status'] as const;

export function applicationStatusQueryOptions(token: string | null) {
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
