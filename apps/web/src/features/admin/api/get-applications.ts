import {
  type ApplicationStatus,
  COUNT_REQUEST_LIMIT,
  type ResearcherApplicationView,
} from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

/** The reply of applicationListResponseSchema. */
export interface ApplicationList {
  success: true;
  applications: ResearcherApplicationView[];
  totalCount: number;
}

export interface ApplicationListParams {
  status: ApplicationStatus;
  limit: number;
  offset: number;
}

/** GET /api/admin/researcher-applications?status=…&limit=…&offset=… (master only). */
export function fetchApplications(
  { status, limit, offset }: ApplicationListParams,
  signal?: AbortSignal,
): Promise<ApplicationList> {
  const query = new URLSearchParams({
    status,
    limit: String(limit),
    offset: String(offset),
  });
  return apiRequest<ApplicationList>(`/api/admin/researcher-applications?${query}`, { signal });
}

/** GET /api/admin/researcher-applications?email=…: the applications one person has made. */
export function fetchApplicationsByEmail(
  email: string,
  signal?: AbortSignal,
): Promise<ApplicationList> {
  const query = new URLSearchParams({ email });
  return apiRequest<ApplicationList>(`/api/admin/researcher-applications?${query}`, { signal });
}

export const applicationsQueryOptions = (params: ApplicationListParams) =>
  queryOptions({
    queryKey: adminKeys.applications(params.status, params.limit, params.offset),
    queryFn: ({ signal }) => fetchApplications(params, signal),
  });

/** How many applications have the status: a `limit=1` call read for its totalCount (000 §9). */
export const applicationCountQueryOptions = (status: ApplicationStatus) =>
  queryOptions({
    ...applicationsQueryOptions({ status, limit: COUNT_REQUEST_LIMIT, offset: 0 }),
    select: (list: ApplicationList) => list.totalCount,
  });

export const applicationsByEmailQueryOptions = (email: string) =>
  queryOptions({
    queryKey: adminKeys.applicationsByEmail(email),
    queryFn: ({ signal }) => fetchApplicationsByEmail(email, signal),
  });

/** One page of a status's applications; the previous page stays on screen while the next loads. */
export function useApplications(params: ApplicationListParams) {
  return useQuery({ ...applicationsQueryOptions(params), placeholderData: keepPreviousData });
}

export function useApplicationCount(status: ApplicationStatus) {
  return useQuery(applicationCountQueryOptions(status));
}

export function useApplicationsByEmail(email: string | null) {
  return useQuery({
    ...applicationsByEmailQueryOptions(email ?? ''),
    enabled: Boolean(email),
  });
}
