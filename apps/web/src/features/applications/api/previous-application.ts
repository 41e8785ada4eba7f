import { applicationsApi } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

const operation = applicationsApi.getPreviousApplication;

/**
 * Every field of the signed-in user's latest rejected application (also one a master reset
 * archived), or null. The register form starts from it.
 */
async function getPreviousApplication(token: string | null, signal?: AbortSignal) {
  const response = await callOperation(operation, {}, { token, signal });
  return operation.response.parse(response).application;
}

export const previousApplicationKey = ['applications', 'previous'] as const;

function previousApplicationQueryOptions(token: string | null) {
  return queryOptions({
    // Per session, so another account signing in on this tab never sees the last one's answers.
    queryKey: [...previousApplicationKey, token],
    queryFn: ({ signal }) => getPreviousApplication(token, signal),
    // A rejection can come at any moment; the form starts from the latest answer.
    staleTime: 0,
  });
}

export function usePreviousApplication(token: string | null, enabled = true) {
  return useQuery({ ...previousApplicationQueryOptions(token), enabled: enabled && !!token });
}
