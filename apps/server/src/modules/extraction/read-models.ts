import {
  type DataType,
  EXTRACTION_RUN_LIST_LIMIT,
  EXTRACTION_SERVER_MESSAGES,
  EXTRACTION_STALLED_REASON,
  type ExtractionJob,
  type ExtractionTask,
} from '@research/contracts';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  extractionJobs,
  extractionRuns,
  extractionTasks,
  participants,
} from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import type { JobRow, RunRow, TaskRow } from './records.js';

/** What the extraction screens read: the jobs of the newest runs, and one job with its tasks. */

/** A job as the panel shows it: progress in percent, and "stalled" when its worker went quiet. */
function toJob(
  job: JobRow,
  run: RunRow | undefined,
  firstName: string | null,
  lastName: string | null,
  skippedDataTypes: DataType[] = [],
): ExtractionJob {
  const finished = job.status === 'completed' || job.status === 'failed';
  // Its worker stopped renewing the lease: the watch hands the job to another worker.
  const stalled =
    job.status === 'running' && job.leaseExpiresAt !== null && job.leaseExpiresAt < new Date();
  const progress =
    job.status === 'completed'
      ? 100
      : job.callsPlanned > 0
        ? Math.min(finished ? 100 : 99, Math.floor((job.callsDone / job.callsPlanned) * 100))
        : finished
          ? 100
          : 0;
  return {
    id: job.id,
    runId: job.runId,
    participantId: job.participantId,
    participantName: [firstName, lastName].filter(Boolean).join(' '),
    extractionName: run?.name ?? '',
    dataTypes: (run?.params.dataTypes ?? []) as DataType[],
    dateRange: run?.params.dateRange ?? { startDate: '', endDate: '', mode: 'single' },
    status: stalled ? 'stalled' : job.status,
    progress,
    callsPlanned: job.callsPlanned,
    callsDone: job.callsDone,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
    error: stalled ? EXTRACTION_STALLED_REASON : job.error,
    skippedDataTypes,
  };
}

/** The distinct skipped data types of each job, in plan order. */
async function skippedTypesOf(db: Db, jobIds: string[]): Promise<Map<string, DataType[]>> {
  const byJob = new Map<string, DataType[]>();
  if (jobIds.length === 0) return byJob;
  const rows = await db
    .select({ jobId: extractionTasks.jobId, dataType: extractionTasks.dataType })
    .from(extractionTasks)
    .where(and(inArray(extractionTasks.jobId, jobIds), eq(extractionTasks.status, 'skipped')))
    .orderBy(asc(extractionTasks.seq));
  for (const { jobId, dataType } of rows) {
    const types = byJob.get(jobId) ?? [];
    if (!types.includes(dataType as DataType)) types.push(dataType as DataType);
    byJob.set(jobId, types);
  }
  return byJob;
}

const toTask = (t: TaskRow): ExtractionTask => ({
  dataType: t.dataType as DataType,
  windowStart: t.windowStart,
  windowEnd: t.windowEnd,
  status: t.status,
  callsPlanned: t.callsPlanned,
  callsDone: t.callsDone,
  rows: t.rows,
  attempts: t.attempts,
  files: t.outputKeys,
  skipReason: t.skipReason,
  error: t.error,
});

export function createReadModels(db: Db) {
  /** Jobs of the newest runs (or of one run), newest first, as the panel shows them. */
  async function listJobs(
    studyId: string,
    options: { runId?: string; runLimit?: number } = {},
  ): Promise<ExtractionJob[]> {
    const runs = options.runId
      ? await db
          .select()
          .from(extractionRuns)
          .where(and(eq(extractionRuns.id, options.runId), eq(extractionRuns.studyId, studyId)))
      : await db
          .select()
          .from(extractionRuns)
          .where(eq(extractionRuns.studyId, studyId))
          .orderBy(desc(extractionRuns.createdAt))
          .limit(options.runLimit ?? EXTRACTION_RUN_LIST_LIMIT);
    if (runs.length === 0) return [];
    const runOf = new Map(runs.map((r) => [r.id, r]));
    const rows = await db
      .select({
        job: extractionJobs,
        firstName: participants.firstName,
        lastName: participants.lastName,
      })
      .from(extractionJobs)
      .innerJoin(participants, eq(participants.id, extractionJobs.participantId))
      .where(
        inArray(
          extractionJobs.runId,
          runs.map((r) => r.id),
        ),
      )
      .orderBy(desc(extractionJobs.createdAt), asc(extractionJobs.participantId));
    const skipped = await skippedTypesOf(
      db,
      rows.map((r) => r.job.id),
    );
    return rows.map(({ job, firstName, lastName }) =>
      toJob(job, runOf.get(job.runId), firstName, lastName, skipped.get(job.id)),
    );
  }

  /** One job of the study with its tasks and its run's files. */
  async function jobDetail(studyId: string, jobId: string) {
    const [row] = await db
      .select({
        job: extractionJobs,
        run: extractionRuns,
        firstName: participants.firstName,
        lastName: participants.lastName,
      })
      .from(extractionJobs)
      .innerJoin(extractionRuns, eq(extractionRuns.id, extractionJobs.runId))
      .innerJoin(participants, eq(participants.id, extractionJobs.participantId))
      .where(and(eq(extractionJobs.id, jobId), eq(extractionJobs.studyId, studyId)));
    if (!row) throw new AppError(404, 'NOT_FOUND', EXTRACTION_SERVER_MESSAGES.runNotFound);
    const tasks = await db
      .select()
      .from(extractionTasks)
      .where(eq(extractionTasks.jobId, jobId))
      .orderBy(asc(extractionTasks.seq));
    const skipped = [
      ...new Set(tasks.filter((t) => t.status === 'skipped').map((t) => t.dataType as DataType)),
    ];
    return {
      job: toJob(row.job, row.run, row.firstName, row.lastName, skipped),
      tasks: tasks.map(toTask),
      runFiles: row.run.files,
    };
  }

  return { listJobs, jobDetail };
}
