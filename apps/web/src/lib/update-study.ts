import { type Study, studiesApi, type UpdateStudyInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from './api-client';

/**
 * The root of the dashboard's study lists. The dashboard and the study screen both change
 * studies, so the key they refresh lives here rather than in either feature.
 */
export const STUDY_LIST_KEY = ['studies'] as const;

export interface UpdateStudyRequest {
  id: string;
  /** Any of name, description, duration, settings; or a new password (with the current one). */
  changes: UpdateStudyInput;
}

/**
 * Details, settings and the study password share the call: a password change sends {password,
 * currentPassword} and fails with 400 INVALID_CURRENT_PASSWORD.
 */
export async function updateStudy({ id, changes }: UpdateStudyRequest): Promise<Study> {
  const response = await callOperation(studiesApi.updateStudyRest, {
    params: { id },
    body: changes,
  });
  return response.study;
}

/** Refreshes the dashboard lists after an update; `onUpdated` lets a screen keep its own copy. */
export function useUpdateStudy(onUpdated?: (study: Study) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudy,
    onSuccess: (study) => {
      onUpdated?.(study);
      return queryClient.invalidateQueries({ queryKey: STUDY_LIST_KEY });
    },
  });
}
