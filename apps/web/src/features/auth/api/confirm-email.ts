import { AUTH_HARDENING_MESSAGES, authApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** Follows the single-use link mailed at sign-up; answers the server's message. */
export async function confirmEmail(token: string): Promise<string> {
  const response = await callOperation(authApi.confirmEmail, { body: { token } }, { token: null });
  return response?.message || AUTH_HARDENING_MESSAGES.confirmed;
}

/**
 * Runs the confirmation once per token: a query (not an effect) so a remount, or React's
 * double mount in development, does not spend the single-use link twice.
 */
export function useConfirmEmail(token: string | null) {
  return useQuery({
    queryKey: ['auth', 'confirm-email', token],
    queryFn: () => confirmEmail(token ?? ''),
    enabled: Boolean(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
