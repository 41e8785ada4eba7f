import { accessTokensApi, type CreateAccessTokenInput } from '@research/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** Cache keys of the access tokens panel; a creation or revocation refreshes the list. */
export const accessTokenKeys = {
  list: (studyId: string) => ['access-tokens', studyId] as const,
};

/** The study's tokens the caller may see (the owner: everyone's), newest first. */
export function useAccessTokens(studyId: string) {
  return useQuery({
    queryKey: accessTokenKeys.list(studyId),
    queryFn: ({ signal }) =>
      callOperation(
        accessTokensApi.listAccessTokens,
        { params: { id: studyId }, query: { limit: 200 } },
        { signal },
      ),
  });
}

/** Sent once: a retry after a 5xx could create a second token whose secret nobody sees. */
export function useCreateAccessToken(studyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccessTokenInput) =>
      callOperation(
        accessTokensApi.createAccessToken,
        { params: { id: studyId }, body },
        { retryAttempts: 1 },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: accessTokenKeys.list(studyId) }),
  });
}

export function useRevokeAccessToken(studyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      callOperation(accessTokensApi.revokeAccessToken, { params: { id: studyId, tokenId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: accessTokenKeys.list(studyId) }),
  });
}
