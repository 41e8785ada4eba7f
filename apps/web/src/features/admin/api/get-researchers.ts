import { COUNT_REQUEST_LIMIT, type Researcher } from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

/** The reply of researcherListResponseSchema. */
export interface ResearcherList {
  success: true;
  researchers: Researcher[];
  totalCount: number;
}

export interface ResearcherListParams {
  status: 'all' | 'approved';
  limit: number;
  offset: number;
}

/** GET /api/admin/researchers?status=…&limit=…&offset=… (master only). */
export function fetchResearchers(
  { status, limit, offset }: ResearcherListParams,
  signal?: AbortSignal,
): Promise<ResearcherList> {
  const query = new URLSearchParams({ status, limit: String(limit), offset: String(offset) });
  return apiRequest<ResearcherList>(`/api/admin/researchers?${query}`, { signal });
}

export const researchersQueryOptions = (params: ResearcherListParams) =>
  queryOptions({
    queryKey: adminKeys.researchers(params.status, params.limit, params.offset),
    queryFn: ({ signal }) => fetchResearchers(params, signal),
  });

/** Active researchers = approved researchers' totalCount, from a `limit=1` call (000 §9). */
export const activeResearcherCountQueryOptions = () =>
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
