/**
 * The study detail screen's list queries and path parameters: the participant, pending and
 * e-mail history tables page, sort and search alike. The calls that take them are
 * operations/participants.ts and operations/email.ts.
 */

import { z } from 'zod';

/** Rows per page of the participant and pending tables (the client may ask for up to 500). */
const STUDY_DETAIL_PAGE_SIZE = 25;
const STUDY_DETAIL_PAGE_MAX = 500;

const searchSchema = z.string().trim().max(200).optional();
const orderSchema = z.enum(['asc', 'desc']).default('asc');
const pageFields = {
  limit: z.coerce.number().int().min(1).max(STUDY_DETAIL_PAGE_MAX).default(STUDY_DETAIL_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
};

/** A table's query: a page, one of its sort columns (and order) and a search term. */
const tableQuerySchema = <const Sort extends string>(
  sorts: readonly [Sort, ...Sort[]],
  defaultSort: NoInfer<Sort>,
) =>
  z.object({
    ...pageFields,
    sort: z.enum(sorts).default(defaultSort),
    order: orderSchema,
    search: searchSchema,
  });

const PARTICIPANT_SORTS = ['name', 'email', 'phone', 'status', 'enrolledAt'] as const;
export type ParticipantSort = (typeof PARTICIPANT_SORTS)[number];
export const participantListQuerySchema = tableQuerySchema(PARTICIPANT_SORTS, 'enrolledAt');
export type ParticipantListQuery = z.input<typeof participantListQuerySchema>;

const PENDING_SORTS = ['email', 'phone', 'status', 'createdAt'] as const;
export type PendingSort = (typeof PENDING_SORTS)[number];
export const pendingParticipantListQuerySchema = tableQuerySchema(PENDING_SORTS, 'createdAt');
export type PendingParticipantListQuery = z.input<typeof pendingParticipantListQuerySchema>;

export const emailHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Path parameters of the participant, pending and member calls. */
export const participantParamsSchema = z.object({ participantId: z.string().max(100) });
export const participantDocumentParamsSchema = z.object({
  participantId: z.string().max(100),
  documentId: z.string().max(100),
});
export const pendingParticipantParamsSchema = z.object({
  id: z.string().max(100),
  pendingId: z.string().max(100),
});
export const studyMemberParamsSchema = z.object({
  id: z.string().max(100),
  userId: z.string().max(100),
});
