import { JOIN_MESSAGES, type OperationBody, STUDY_MESSAGES, studiesApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyKeys } from './study-list';

/** The caller becomes a collaborator; `alreadyMember` when they were one already. */
export async function joinStudy(input: OperationBody<typeof studiesApi.joinStudy>) {
  const response = await callOperation(studiesApi.joinStudy, { body: input });
  const alreadyMember = response.alreadyMember === true;
  const fallback = alreadyMember ? JOIN_MESSAGES.alreadyMember : STUDY_MESSAGES.joined;
  return { study: response.study, message: response.message || fallback, alreadyMember };
}

export function useJoinStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
