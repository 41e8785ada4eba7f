import { extractionApi, type OperationBody } from '@research/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { extractionKeys } from './keys';

export type EstimateRequest = OperationBody<typeof extractionApi.estimateExtraction>;

/**
 * The calls and time of a complete selection, from the server's plan and quotas. The last answer
 * stays on screen while the next selection's is on its way; no request for an incomplete one.
 */
export function useExtractionEstimate(studyId: string, request: EstimateRequest | null) {
  return useQuery({
    queryKey: extractionKeys.estimate(studyId, request),
    queryFn: ({ signal }) =>
      callOperation(
        extractionApi.estimateExtraction,
        { params: { id: studyId }, body: request as EstimateRequest },
        { signal },
      ),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
