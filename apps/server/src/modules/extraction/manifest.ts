import type { AppConfig } from '../../config.js';
import type { RequestRecord, RunRow, TaskRow } from './records.js';

/**
 * `manifest.json`: what a run fetched and wrote, for whoever receives its files: the provider and
 * API, the run's parameters, each participant's grant, tasks and exact requests, and every file
 * with its size and SHA-256.
 */

export const API_VERSION = 'v4';

export interface WrittenFile {
  key: string;
  bytes: number;
  sha256: string;
}

export interface ManifestJob {
  id: string;
  participantId: string;
  status: string;
  error: string | null;
  healthUserId: string | null;
  grantedScopes: string[] | null;
}

const requestsOf = (task: TaskRow) => task.requests as RequestRecord[];

/**
 * A page's entry: the request as it went out, where its answer is, and its hash; for a page read
 * from the dataset, its call and partition (with when that was fetched) instead of a request.
 */
function requestEntry(record: RequestRecord) {
  if (record.source !== 'dataset') {
    const { callKey: _key, readAsJson: _readAsJson, ...entry } = record;
    return entry;
  }
  const { source, callKey, readAsJson: _readAsJson, ...entry } = record;
  return { source, call: callKey, ...entry };
}

export function buildManifest(input: {
  config: AppConfig;
  run: RunRow;
  jobs: ManifestJob[];
  tasks: TaskRow[];
  files: WrittenFile[];
  rowCounts: Record<string, number>;
}) {
  const { run, jobs, tasks } = input;
  return {
    provider: 'google-health',
    apiVersion: API_VERSION,
    apiBaseUrl: input.config.googleHealth.apiUrl,
    runId: run.id,
    name: run.name,
    studyId: run.studyId,
    createdAt: run.createdAt.toISOString(),
    dataTypes: run.params.dataTypes,
    dateRange: run.params.dateRange,
    rowCounts: input.rowCounts,
    participants: jobs.map((job) => ({
      participantId: job.participantId,
      healthUserId: job.healthUserId ?? null,
      grantedScopes: job.grantedScopes ?? [],
      status: job.status,
      error: job.error,
      tasks: tasks
        .filter((t) => t.jobId === job.id)
        .map((t) => ({
          dataType: t.dataType,
          windowStart: t.windowStart,
          windowEnd: t.windowEnd,
          status: t.status,
          rows: t.rows,
          skipReason: t.skipReason,
          error: t.error,
          requests: requestsOf(t).map(requestEntry),
        })),
    })),
    files: [
      ...input.files.map((f) => ({ key: f.key, bytes: f.bytes, sha256: f.sha256 })),
      ...tasks.flatMap((t) =>
        requestsOf(t).map((r) => ({ key: r.object, bytes: r.bytes, sha256: r.sha256 })),
      ),
    ],
  };
}
