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

/** What every page record of a task says: its call, its copy in the run's folder, size and hash. */
interface PageRecord {
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

/** A page this run asked Google for: the request exactly as sent. */
export interface FetchedRecord extends PageRecord, SentRequest {
  source?: undefined;
}

/**
 * A page read from the study's dataset instead of asked for: the partition it came from and when
 * that was fetched (`fetchedAt`), never a request this run did not send.
 */
export interface DatasetRecord extends PageRecord {
  source: 'dataset';
  partition: {
    type: string;
    date: string;
    timeZone: string;
    state: 'complete' | 'empty';
    version: string;
    /** The page's object under `dataset/`, which a later write of the partition may replace. */
    object: string;
  };
}

/** One page of a task, as its task row keeps it for the manifest (`requests`). */
export type RequestRecord = FetchedRecord | DatasetRecord;

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
