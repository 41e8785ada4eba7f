import { studiesApi } from '@research/contracts';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';

/**
 * A short-lived signed link to the bucket listing. A mutation rather than a query: each click
 * asks for a fresh link and nothing is cached.
 */
export function fetchBucketUrl(studyId: string) {
  return callOperation(studiesApi.getBucketUrl, { params: { studyId } });
}

export function useBucketUrl() {
  return useMutation({ mutationFn: fetchBucketUrl });
}
