import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A change to one study that, once it succeeded, refreshes the cache keys the change can reach
 * (the narrowest list plus the counts it moves), so every study mutation invalidates one way.
 */
export function useStudyMutation<TRequest, TResult>(
  mutationFn: (request: TRequest) => Promise<TResult>,
  keysToRefresh: (request: TRequest) => readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_, request) =>
      Promise.all(
        keysToRefresh(request).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
