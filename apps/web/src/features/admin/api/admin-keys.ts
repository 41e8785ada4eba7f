import type { ApplicationStatus } from '@research/contracts';

/**
 * Query keys of the master dashboard. Every key starts with 'admin', so a review action can
 * invalidate the counts and all three lists in one call (after approve, reject or
 * reset, lists reload).
 */
export const adminKeys = {
  all: ['admin'] as const,
  applications: (status: ApplicationStatus, limit: number, offset: number) =>
    ['admin', 'applications', status, { limit, offset }] as const,
  applicationsTotal: ['admin', 'applications', 'total'] as const,
  applicationsByEmail: (email: string) => ['admin', 'applications', 'by-email', email] as const,
  researchers: (status: 'all' | 'approved', limit: number, offset: number) =>
    ['admin', 'researchers', status, { limit, offset }] as const,
};

/** Rows per table page (server-side limit/offset). */
export const ADMIN_PAGE_SIZE = 25;
