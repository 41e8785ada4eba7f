import { type DataType, EXTRACTION_SERVER_MESSAGES, scopeLabel } from '@research/contracts';
import { asc, eq } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import { databaseUnavailability } from '../../db/availability.js';
import type { Db } from '../../db/client.js';
import { extractionJobs, extractionTasks } from '../../db/schema/index.js';
import { AppError } from '../../errors.js';
import { GoogleHealthError } from '../../platform/google-health/index.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { consentHoldOf, consentHoldReason } from '../consent/index.js';
import { connectionStateOf } from '../wearables/index.js';
import { type Lease, LeaseLost, type Leases } from './lease.js';
import { missingScopes } from './plan.js';
import type { Progress } from './progress.js';
import { errorText, JobFatal, type JobRow, type TaskRow } from './records.js';
import type { Connection, TaskRunner } from './task-runner.js';

/**
 * One participant's job: its open tasks, several at once, each making its calls in turn. A copy
 * works only if it takes the job's lease; what fails decides whether the job is retried (an early
 * attempt, a database out of reach), fails at once (no grant), or ends with the task failed.
 */

export interface JobRunnerDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  leases: Leases;
  progress: Progress;
  runTask: TaskRunner;
  bucketOf: (studyId: string) => string;
  /** Called once the job has ended: the run's last job writes the run's files. */
  maybeFinalize: (runId: string) => Promise<void>;
}

export function createJobRunner(deps: JobRunnerDeps) {
  const { db, progress } = deps;

  /**
   * One copy of a participant's job: it works only if it takes the job's lease. A copy that finds
   * the lease held (pg-boss handed the job out again while the first copy works) leaves at once:
   * the holder ends the job, or the run's watch job hands it on if the holder dies.
   */
  async function processJob(jobId: string, finalAttempt: boolean) {
    const taken = await deps.leases.take(jobId);
    if (!taken) {
      const [row] = await db
        .select({ runId: extractionJobs.runId, status: extractionJobs.status })
        .from(extractionJobs)
        .where(eq(extractionJobs.id, jobId));
      // Done before, but the worker may have died while writing the run's files.
      if (row?.status === 'completed' || row?.status === 'failed') {
        await deps.maybeFinalize(row.runId);
      }
      return;
    }
    const { lease, job } = taken;
    try {
      await workJob(lease, job, finalAttempt);
    } catch (error) {
      if (error instanceof LeaseLost || lease.lost) return;
      // An outage is retried like an early attempt, even on the last (the queue sends it again).
      if (!finalAttempt || databaseUnavailability(error)) {
        await release(lease, error);
        throw error;
      }
      // Out of retries on an unexpected failure: report it, so the run can still finish.
      try {
        await progress.failJob(lease, errorText(error));
      } catch (failure) {
        if (failure instanceof LeaseLost) return;
        throw failure;
      }
    } finally {
      deps.leases.drop(lease);
    }
    await deps.maybeFinalize(job.runId);
  }

  /**
   * Frees the lease for pg-boss's retry at once, rather than when it would have run out. While
   * the database is away that waits for it (up to the lease's own end): otherwise the retry finds
   * the lease still held and only the run's watch would hand the job on, a minute on.
   */
  async function release(lease: Lease, error: unknown) {
    for (let attempt = 0; ; attempt++) {
      try {
        await progress.releaseJob(lease);
        return;
      } catch (freeing) {
        if (!databaseUnavailability(freeing) || Date.now() > lease.validUntil) throw error;
        await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** attempt, 5_000)));
      }
    }
  }

  async function connectionOf(participantId: string) {
    const connection = await connectionStateOf(db, participantId);
    if (!connection) throw new JobFatal(EXTRACTION_SERVER_MESSAGES.notConnected);
    if (connection.status !== 'active') {
      throw new JobFatal(EXTRACTION_SERVER_MESSAGES.needsReauthorization);
    }
    return connection;
  }

  async function workJob(lease: Lease, job: JobRow, finalAttempt: boolean) {
    try {
      const connection = await connectionOf(job.participantId);
      // The consent gate, in the job: a participant held back is not fetched; the job says why.
      const hold = await consentHoldOf(db, {
        participantId: job.participantId,
        studyId: job.studyId,
      });
      if (hold) throw new JobFatal(consentHoldReason(hold));
      const bucket = deps.bucketOf(job.studyId);
      await deps.objectStore.ensureBucket(bucket);
      const tasks = await db
        .select()
        .from(extractionTasks)
        .where(eq(extractionTasks.jobId, job.id))
        .orderBy(asc(extractionTasks.seq));
      // Completed and skipped tasks are done; failed ones failed for good on an earlier final
      // attempt (or by a fatal error): reported, not redone.
      const open = tasks.filter((t) => t.status === 'pending' || t.status === 'running');
      await inLanes(open, (task, signal) =>
        oneTask(lease, job, task, connection, bucket, finalAttempt, signal),
      );
      await progress.finishJob(lease);
    } catch (error) {
      if (!(error instanceof JobFatal)) throw error;
      await progress.failJob(lease, error.message);
    }
  }

  /**
   * Several of the participant's tasks at once, each making its calls in turn; every call still
   * takes a slot of the participant's quota first. The first failure stops new tasks from
   * starting, and is raised once the ones under way have ended. A fatal one (a dead grant) or a
   * lost lease also stops the tasks under way before their next call: a lane waiting a minute for
   * the quota would otherwise keep the job 'running' that long for nothing.
   */
  async function inLanes(
    open: TaskRow[],
    work: (task: TaskRow, signal: AbortSignal) => Promise<void>,
  ) {
    let failure: { error: unknown } | null = null;
    const stop = new AbortController();
    let next = 0;
    const lane = async () => {
      for (let task = open[next++]; task && !failure; task = open[next++]) {
        try {
          await work(task, stop.signal);
        } catch (error) {
          // A fatal error or a lost lease wins over whatever another lane met.
          const final = error instanceof JobFatal || error instanceof LeaseLost;
          if (!failure || final) failure = { error };
          if (final) stop.abort();
        }
      }
    };
    const lanes = Math.min(deps.config.extraction.callsPerParticipant, open.length);
    await Promise.all(Array.from({ length: lanes }, lane));
    if (failure) throw (failure as { error: unknown }).error;
  }

  /** A task, and what its failure means for it and its job. */
  async function oneTask(
    lease: Lease,
    job: JobRow,
    task: TaskRow,
    connection: Connection,
    bucket: string,
    finalAttempt: boolean,
    signal: AbortSignal,
  ) {
    const missing = missingScopes(task.dataType as DataType, connection.grantedScopes);
    if (missing.length > 0) {
      const reason = `Scope not granted: ${missing.map(scopeLabel).join(', ')}`;
      await progress.skipTask(lease, task, reason);
      return;
    }
    try {
      await deps.runTask(lease, job, task, connection, bucket, signal);
    } catch (error) {
      // Stopped by another lane's fatal failure, which the job reports: nothing to add here.
      if (error instanceof LeaseLost || signal.aborted) throw error;
      if (error instanceof AppError && error.code === 'NEEDS_REAUTHORIZATION') {
        throw new JobFatal(EXTRACTION_SERVER_MESSAGES.needsReauthorization);
      }
      if (error instanceof AppError && error.code === 'NOT_CONNECTED') {
        throw new JobFatal(EXTRACTION_SERVER_MESSAGES.notConnected);
      }
      if (error instanceof GoogleHealthError && error.kind === 'permission_denied') {
        await progress.skipTask(lease, task, 'Scope not granted (refused by Google)');
        return;
      }
      const message = errorText(error);
      // A database out of reach is no fault of the task: retried, never failed for it.
      if (!finalAttempt || databaseUnavailability(error)) {
        await progress.setTask(lease, task, 'pending', message);
        throw error;
      }
      await progress.setTask(lease, task, 'failed', message);
    }
  }

  return { processJob };
}
