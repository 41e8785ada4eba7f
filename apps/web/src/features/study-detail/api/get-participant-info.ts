import { type ParticipantDetails, participantsApi } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** The Participant Details dialog. */
export async function fetchParticipantInfo(
  participantId: string,
  signal?: AbortSignal,
): Promise<ParticipantDetails> {
  const response = await callOperation(
    participantsApi.getParticipantInfo,
    { params: { participantId } },
    { signal },
  );
  return response.participant;
}

export const participantInfoOptions = (studyId: string, participantId: string) =>
  queryOptions({
    queryKey: studyDetailKeys.participantInfo(studyId, participantId),
    queryFn: ({ signal }) => fetchParticipantInfo(participantId, signal),
  });

export function useParticipantInfo(studyId: string, participantId: string | null) {
  return useQuery({
    ...participantInfoOptions(studyId, participantId ?? ''),
    enabled: participantId !== null,
  });
}
