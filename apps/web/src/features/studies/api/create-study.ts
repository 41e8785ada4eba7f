import { type CreateStudyInput, type Study, studiesApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyKeys } from './study-list';

/**
 * Creates a study (study.studyCode is the new code). Sent once: a 5xx may come after the study
 * was created, and a retry would create a second one.
 */
export async function createStudy(input: CreateStudyInput): Promise<Study> {
  const response = await callOperation(
    studiesApi.createStudy,
    { body: input },
    { retryAttempts: 1 },
  );
  return response.study;
}

export function useCreateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
