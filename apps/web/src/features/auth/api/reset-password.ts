import { authApi, type OperationBody } from '@research/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** Is the link still usable, and for which account. */
export async function checkResetToken(token: string) {
  const response = await callOperation(
    authApi.checkResetToken,
    { body: { token } },
    { token: null },
  );
  return { purpose: response.purpose, email: response.email };
}

export function useResetToken(token: string | null) {
  return useQuery({
    queryKey: ['auth', 'reset-token', token],
    queryFn: () => checkResetToken(token ?? ''),
    enabled: Boolean(token),
    // A link is single-use: never serve an earlier answer from the cache.
    gcTime: 0,
    staleTime: 0,
  });
}

/** Sets the new password from the link; answers the server's message. */
export async function resetPassword(
  input: OperationBody<typeof authApi.resetPassword>,
): Promise<string> {
  const response = await callOperation(authApi.resetPassword, { body: input }, { token: null });
  return response?.message ?? '';
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
