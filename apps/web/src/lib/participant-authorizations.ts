import { type WearableAuthorizationRow, wearablesApi } from '@research/contracts';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from './api-client';

const PAGE = 200;

/** Every participant with its authorization, read in pages from the study's listing. */
export async function fetchAllAuthorizations(
  studyId: string,
  signal?: AbortSignal,
): Promise<WearableAuthorizationRow[]> {
  const rows: WearableAuthorizationRow[] = [];
  for (let offset = 0; offset < 10_000; offset += PAGE) {
    const page = await callOperation(
      wearablesApi.listWearableAuthorizations,
      { params: { id: studyId }, query: { limit: PAGE, offset } },
      { signal },
    );
    rows.push(...page.authorizations);
    if (rows.length >= page.totalCount || page.authorizations.length === 0) break;
  }
  return rows;
}

/**
 * The study's participants with their authorizations, for the pickers of the extraction and the
 * export forms: both read the same cache entry.
 */
export const participantAuthorizationsKey = (studyId: string) =>
  ['participant-authorizations', studyId] as const;

export function useParticipantAuthorizations(studyId: string) {
  return useQuery({
    queryKey: participantAuthorizationsKey(studyId),
    queryFn: ({ signal }) => fetchAllAuthorizations(studyId, signal),
  });
}
