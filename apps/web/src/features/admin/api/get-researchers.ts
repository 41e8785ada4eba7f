import { applicationsApi, COUNT_REQUEST_LIMIT, type OperationResponse } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

type ResearcherList = OperationResponse<typeof applicationsApi.listResearchers>;

interface ResearcherListParams {
  status: 'all' | 'approved';
  limit: number;
  offset: number;
}

/** One page of researchers (master only). */
function fetchResearchers(query: ResearcherListParams, signal?: AbortSignal) {
  return callOperation(applicationsApi.listResearchers, { query }, { signal });
}

const researchersQueryOptions = (params: ResearcherListParams) =>
  queryOptions({
    queryKey: adminKeys.researchers(params.status, params.limit, params.offset),
    queryFn: ({ signal }) => fetchResearchers(params, signal),
  });

/** Active researchers = approved researchers' totalCount, from a `limit=1` call. */
const activeResearcherCountQueryOptions = () =>
  queryOptions({
    ...researchersQueryOptions({ status: 'approved', limit: COUNT_REQUEST_LIMIT, offset: 0 }),
    select: (list: ResearcherList) => list.totalCount,
  });

export function useResearchers(params: ResearcherListParams) {
  return useQuery({ ...researchersQueryOptions(params), placeholderData: keepPreviousData });
}

export function useActiveResearcherCount() {
  return useQuery(activeResearcherCountQueryOptions());
}
