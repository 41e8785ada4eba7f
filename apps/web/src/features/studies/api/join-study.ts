import { STUDY_MESSAGES, type Study } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { studyKeys } from './study-list';

interface JoinStudyResponse {
  success: boolean;
  study: Study;
  message?: string;
}

export interface JoinStudyRequest {
  studyCode: string;
  password: string;
}

/** POST /api/auth/join-study {studyCode, password}: the caller becomes a collaborator. */
export async function joinStudy(
  input: JoinStudyRequest,
): Promise<{ study: Study; message: string }> {
  const response = await apiRequest<JoinStudyResponse>('/api/auth/join-study', {
    method: 'POST',
    body: input,
  });
  return { study: response.study, message: response.message || STUDY_MESSAGES.joined };
}

export function useJoinStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
