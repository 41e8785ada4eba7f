import { type Study, studiesApi, type UpdateStudyInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyKeys } from './study-list';

export interface UpdateStudyRequest {
  id: string;
  /** Any of name, description, duration; or a new password (with the current one, if any). */
  changes: UpdateStudyInput;
}

/**
 * Details and the study password share the call: a password change sends {password,
 * currentPassword} and fails with 400 INVALID_CURRENT_PASSWORD.
 */
export async function updateStudy({ id, changes }: UpdateStudyRequest): Promise<Study> {
  const response = await callOperation(studiesApi.updateStudy, { params: { id }, body: changes });
  return response.study;
}

export function useUpdateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
