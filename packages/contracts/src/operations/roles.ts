/**
 * The errors each kind of caller can meet before a handler runs, for operations to
 * list next to their own.
 */
import type { ErrorMap } from './operation.js';

/** Signed in as an approved researcher: anyone else is refused. */
export const RESEARCHER_ERRORS = { 403: ['NOT_APPROVED'] } as const satisfies ErrorMap;

/** A route under a study id: unknown or deleted (404) or not a member (403). */
export const MEMBER_ERRORS = {
  403: ['NOT_APPROVED', 'NOT_A_MEMBER'],
  404: ['STUDY_NOT_FOUND'],
} as const satisfies ErrorMap;

/** The master account only. */
export const MASTER_ERRORS = { 403: ['MASTER_ONLY'] } as const satisfies ErrorMap;
