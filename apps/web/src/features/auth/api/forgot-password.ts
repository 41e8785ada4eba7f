import { AUTH_MESSAGES } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

interface MessageResponse {
  success?: boolean;
  message?: string;
}

/** POST /api/auth/forgot-password: the same answer whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<string> {
  const response = await apiRequest<MessageResponse>('/api/auth/forgot-password', {
    method: 'POST',
    body: { email },
    token: null,
  });
  return response?.message || AUTH_MESSAGES.passwordResetSent;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
