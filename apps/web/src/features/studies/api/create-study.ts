import type { CreateStudyInput, Study } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { studyKeys } from './study-list';

interface CreateStudyResponse {
  success: boolean;
  study: Study;
  message?: string;
}

/**
 * POST /api/auth/create-study → 201 {study} (study.studyCode is the new code). Sent once: a 5xx
 * may come after the study was created, and a retry would create a second one.
 */
export async function createStudy(input: CreateStudyInput): Promise<Study> {
  const response = await apiRequest<CreateStudyResponse>('/api/auth/create-study', {
    method: 'POST',
    body: input,
    retryAttempts: 1,
  });
  return response.study;
}

export function useCreateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
