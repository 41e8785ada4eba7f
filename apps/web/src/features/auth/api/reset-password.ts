import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface ResetTokenInfo {
  purpose: 'reset_password' | 'set_password';
  email: string;
}

/** POST /api/auth/check-reset-token: is the link still usable, and for which account. */
export async function checkResetToken(token: string): Promise<ResetTokenInfo> {
  const response = await apiRequest<{ success?: boolean } & ResetTokenInfo>(
    '/api/auth/check-reset-token',
    { method: 'POST', body: { token }, token: null },
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

/** POST /api/auth/reset-password. */
export async function resetPassword(input: { token: string; password: string }): Promise<string> {
  const response = await apiRequest<{ success?: boolean; message?: string }>(
    '/api/auth/reset-password',
    { method: 'POST', body: input, token: null },
  );
  return response?.message ?? '';
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
