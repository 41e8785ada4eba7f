import { type AuditKind, auditApi, participantsApi } from '@research/contracts';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { callOperation, downloadOperation } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/** A study's trail (its owner) or the platform's (the master). */
export type AuditScope = { studyId: string } | { platform: true };

export interface AuditFilters {
  actor?: string;
  kind?: AuditKind;
  from?: string;
  to?: string;
}

const PAGE_SIZE = 50;

/** Only the filters that are set: an empty select or date is no filter. */
const queryOf = (filters: AuditFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as AuditFilters;

export const auditKeys = {
  trail: (scope: AuditScope, filters: AuditFilters) =>
    ['audit', 'studyId' in scope ? scope.studyId : 'platform', queryOf(filters)] as const,
  members: (studyId: string) => ['audit', studyId, 'members'] as const,
};

/** The trail, newest first, a page at a time: each page continues from the last one's cursor. */
export function useAuditTrail(scope: AuditScope, filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.trail(scope, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = {
        ...queryOf(filters),
        limit: PAGE_SIZE,
        ...(pageParam ? { cursor: pageParam } : {}),
      };
      return 'studyId' in scope
        ? callOperation(
            auditApi.getStudyAudit,
            { params: { id: scope.studyId }, query },
            { signal },
          )
        : callOperation(auditApi.getPlatformAudit, { query }, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The study's team, for the person filter. */
export function useStudyMembers(studyId: string | undefined) {
  return useQuery({
    queryKey: auditKeys.members(studyId ?? ''),
    enabled: Boolean(studyId),
    queryFn: ({ signal }) =>
      callOperation(participantsApi.listMembers, { params: { id: studyId ?? '' } }, { signal }),
  });
}

/** Downloads every entry matching the filters as CSV (the server writes it as it reads). */
export function useDownloadAuditCsv(scope: AuditScope) {
  return useMutation({
    mutationFn: async ({ filters, fileName }: { filters: AuditFilters; fileName: string }) => {
      const query = queryOf(filters);
      const file =
        'studyId' in scope
          ? await downloadOperation(auditApi.downloadStudyAudit, {
              params: { id: scope.studyId },
              query,
            })
          : await downloadOperation(auditApi.downloadPlatformAudit, { query });
      saveBlob(file, fileName);
    },
  });
}
