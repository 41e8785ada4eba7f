import { ACCOUNT_FORM_MESSAGES, authApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** Asks for a reset link: the same answer whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<string> {
  const response = await callOperation(
    authApi.forgotPassword,
    { body: { email } },
    { token: null },
  );
  return response?.message || ACCOUNT_FORM_MESSAGES.passwordResetSent;
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
