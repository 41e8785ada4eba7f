import {
  type ApplicationStatus,
  applicationsApi,
  COUNT_REQUEST_LIMIT,
  type OperationResponse,
} from '@research/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

type ApplicationList = OperationResponse<typeof applicationsApi.listApplications>;

interface ApplicationListParams {
  status: ApplicationStatus;
  limit: number;
  offset: number;
}

/** One page of a status's applications (master only). */
function fetchApplications(query: ApplicationListParams, signal?: AbortSignal) {
  return callOperation(applicationsApi.listApplications, { query }, { signal });
}

/** The applications one person has made. */
function fetchApplicationsByEmail(email: string, signal?: AbortSignal) {
  return callOperation(applicationsApi.listApplications, { query: { email } }, { signal });
}

const applicationsQueryOptions = (params: ApplicationListParams) =>
  queryOptions({
    queryKey: adminKeys.applications(params.status, params.limit, params.offset),
    queryFn: ({ signal }) => fetchApplications(params, signal),
  });

/** How many applications have the status: a `limit=1` call read for its totalCount. */
const applicationCountQueryOptions = (status: ApplicationStatus) =>
  queryOptions({
    ...applicationsQueryOptions({ status, limit: COUNT_REQUEST_LIMIT, offset: 0 }),
    select: (list: ApplicationList) => list.totalCount,
  });

/**
 * 'Total Applications': the `limit=1` count without a status, which the server answers from the
 * whole history, so an application reset for resubmission still counts.
 */
const totalApplicationCountQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.applicationsTotal,
    queryFn: ({ signal }) =>
      callOperation(
        applicationsApi.listApplications,
        { query: { limit: COUNT_REQUEST_LIMIT, offset: 0 } },
        { signal },
      ),
    select: (list: ApplicationList) => list.totalCount,
  });

const applicationsByEmailQueryOptions = (email: string) =>
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

export function useTotalApplicationCount() {
  return useQuery(totalApplicationCountQueryOptions());
}

export function useApplicationsByEmail(email: string | null) {
  return useQuery({
    ...applicationsByEmailQueryOptions(email ?? ''),
    enabled: Boolean(email),
  });
}
