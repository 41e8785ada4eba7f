import { participantsApi, type StudyMember } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** The owner ('main') and the collaborators ('collab'). */
export async function fetchMembers(studyId: string, signal?: AbortSignal): Promise<StudyMember[]> {
  const response = await callOperation(
    participantsApi.listMembers,
    { params: { id: studyId } },
    { signal },
  );
  return response.members;
}

export const membersOptions = (studyId: string) =>
  queryOptions({
    queryKey: studyDetailKeys.members(studyId),
    queryFn: ({ signal }) => fetchMembers(studyId, signal),
  });

export function useMembers(studyId: string, enabled = true) {
  return useQuery({ ...membersOptions(studyId), enabled });
}
