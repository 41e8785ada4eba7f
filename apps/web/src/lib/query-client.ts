import { QueryClient } from '@tanstack/react-query';

/**
 * The one query cache of the app. apiRequest already retries network failures and 5xx replies
 * with backoff, so TanStack Query must not retry on top of it (3 × 3 attempts otherwise).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
