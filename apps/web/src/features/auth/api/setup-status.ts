import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface SetupStatus {
  valid: boolean;
  masterExists: boolean;
}

/** POST /api/setup/status: may this set-up link still create the master account? */
export async function fetchSetupStatus(token: string): Promise<SetupStatus> {
  const response = await apiRequest<{ success?: boolean } & SetupStatus>('/api/setup/status', {
    method: 'POST',
    body: { token },
    token: null,
  });
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
