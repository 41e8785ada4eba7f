import { authApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/** May this set-up link still create the master account? */
export async function fetchSetupStatus(token: string) {
  const response = await callOperation(authApi.setupStatus, { body: { token } }, { token: null });
  return { valid: response.valid === true, masterExists: response.masterExists === true };
}

export function useSetupStatus(token: string | null) {
  return useQuery({
    queryKey: ['setup', 'status', token],
    queryFn: () => fetchSetupStatus(token ?? ''),
    enabled: Boolean(token),
    gcTime: 0,
    staleTime: 0,
  });
}
