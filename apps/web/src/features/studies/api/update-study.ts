import type { Study, UpdateStudyInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { studyKeys } from './study-list';

interface UpdateStudyResponse {
  success: boolean;
  study: Study;
}

export interface UpdateStudyRequest {
  id: string;
  /** Any of name, description, duration; or a new password with the current one. */
  changes: UpdateStudyInput;
}

/**
 * PUT /api/auth/update-study/{id}. Details and the study password share the call: a password
 * change sends {password, currentPassword} and fails with 400 INVALID_CURRENT_PASSWORD.
 */
export async function updateStudy({ id, changes }: UpdateStudyRequest): Promise<Study> {
  const response = await apiRequest<UpdateStudyResponse>(
    `/api/auth/update-study/${encodeURIComponent(id)}`,
    { method: 'PUT', body: changes },
  );
  return response.study;
}

export function useUpdateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
