import type { extractionJobs, extractionRuns, extractionTasks } from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { GoogleHealthError } from '../../platform/google-health/index.js';

/** What the engine's parts share: the rows they read, the records they keep, the objects' names. */

export type RunRow = typeof extractionRuns.$inferSelect;
export type JobRow = typeof extractionJobs.$inferSelect;
export type TaskRow = typeof extractionTasks.$inferSelect;

/** A request exactly as it went out: its method, address and JSON body (no header, so no token). */
export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
}

/** One page a task fetched, as its task row keeps it for the manifest (`requests`). */
export interface RequestRecord extends SentRequest {
  callKey: string;
  fetchedAt: string;
  object: string;
  bytes: number;
  sha256: string;
  /**
   * Set when the page's fast reader (raw heart rate, read from its bytes) could not read it and it
   * was parsed as JSON instead; counted at the run's end. Not part of the manifest.
   */
  readAsJson?: true;
}

/** node-postgres answers a result object, PGlite its rows' holder: both carry `rows`. */
export const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

export const runPrefix = (runId: string) => `extractions/${runId}`;

/**
 * A task's tidy rows (CSV, no header) until finalisation joins them into its type's file. The
 * lease generation is part of the key: a copy that lost its lease can never overwrite the part
 * the task row names.
 */
export const partKey = (runId: string, taskId: string, generation: number) =>
  `${runPrefix(runId)}/parts/${taskId}.g${generation}.csv`;
export const partsPrefix = (runId: string) => `${runPrefix(runId)}/parts/`;

/** A raw page as fetched: the same name whenever the task runs again (deterministic keys). */
export const rawKey = (
  runId: string,
  participantId: string,
  dataType: string,
  callKey: string,
  from: string | undefined,
  page: number,
) =>
  `${runPrefix(runId)}/raw/${participantId}/${dataType}/${callKey}_${from ?? 'now'}_p${page + 1}.json`;

/** A failure that ends the participant's job at once (no retry helps). */
export class JobFatal extends Error {}

/** What a task's or job's error says, without anything the provider or a token could leak. */
export function errorText(error: unknown): string {
  if (error instanceof GoogleHealthError)
    return `Google Health API: ${error.status} ${error.reason}`;
  if (error instanceof AppError) return error.message;
  return 'Network error or request failed';
}
