import { AUTH_HARDENING_MESSAGES, authApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** A fresh confirmation link for the signed-in account; answers the server's message. */
export async function resendConfirmation(): Promise<string> {
  const response = await callOperation(authApi.resendConfirmation, {});
  return response?.message || AUTH_HARDENING_MESSAGES.confirmationSent;
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
