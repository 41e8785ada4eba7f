import { type Study, studiesApi, type UpdateStudyInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { DASHBOARD_STUDIES_KEY, studyDetailKeys } from './keys';

export interface UpdateStudyRequest {
  studyId: string;
  changes: Pick<UpdateStudyInput, 'name' | 'description' | 'duration' | 'settings'>;
}

/** Name, description, duration and (owner) settings, through the REST path. */
export async function updateStudy({ studyId, changes }: UpdateStudyRequest): Promise<Study> {
  const response = await callOperation(studiesApi.updateStudyRest, {
    params: { id: studyId },
    body: changes,
  });
  return response.study;
}

export function useUpdateStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStudy,
    onSuccess: (study, { studyId }) => {
      // The header and the generated invitation e-mail quote name, description and duration.
      queryClient.setQueryData(studyDetailKeys.summary(studyId), study);
      return queryClient.invalidateQueries({ queryKey: DASHBOARD_STUDIES_KEY });
    },
  });
}
