import { type EmailDetails, emailApi } from '@research/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';

/** The Email Details dialog: body and recipients of one mailing. */
export async function fetchEmailDetails(
  studyId: string,
  emailId: string,
  signal?: AbortSignal,
): Promise<EmailDetails> {
  const response = await callOperation(
    emailApi.getEmailDetails,
    { params: { studyId, emailId } },
    { signal },
  );
  return response.email;
}

export const emailDetailsOptions = (studyId: string, emailId: string) =>
  queryOptions({
    queryKey: studyDetailKeys.emailDetails(studyId, emailId),
    queryFn: ({ signal }) => fetchEmailDetails(studyId, emailId, signal),
  });

/** Fetched when the dialog opens (emailId set); nothing is fetched while it is closed. */
export function useEmailDetails(studyId: string, emailId: string | null) {
  return useQuery({
    ...emailDetailsOptions(studyId, emailId ?? ''),
    enabled: emailId !== null,
  });
}
