import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionJobs, extractionTasks } from '../../db/schema/index.js';
import { heldJob, holds, type Lease, wrote } from './lease.js';
import { type RequestRecord, rowsOf, type TaskRow } from './records.js';

/**
 * Progress bookkeeping: every write of a task's or job's state and counts, each conditioned on the
 * writer's lease. Job totals are sums over its tasks. While a job runs they move by the same
 * amounts as its tasks' counts (one statement with the task's own update); at its end they are
 * summed again, so nothing a re-run or a dead worker left behind can stay counted twice.
 */
export function createProgress(db: Db) {
  const t = extractionTasks;
  const j = extractionJobs;

  /** Moves a job's totals by a task's change in counts (when a task restarts or completes). */
  async function moveJobTotals(lease: Lease, delta: { done: number; planned: number }) {
    if (delta.done === 0 && delta.planned === 0) return;
    const rows = await db
      .update(j)
      .set({
        callsDone: sql`${j.callsDone} + ${delta.done}`,
        callsPlanned: sql`${j.callsPlanned} + ${delta.planned}`,
      })
      .where(heldJob(lease))
      .returning({ id: j.id });
    wrote(lease, rows);
  }

  /** A task starts (again): one more attempt, its count afresh, and its job's total with it. */
  async function startTask(lease: Lease, task: TaskRow) {
    wrote(
      lease,
      await db
        .update(t)
        .set({
          status: 'running',
          attempts: sql`${t.attempts} + 1`,
          callsDone: 0,
          error: null,
          updatedAt: new Date(),
        })
        .where(and(eq(t.id, task.id), holds(lease)))
        .returning({ id: t.id }),
    );
    await moveJobTotals(lease, { done: -task.callsDone, planned: 0 });
  }

  /** A page's progress: the task's counts and its job's totals (by the difference) at once. */
  async function recordPage(
    lease: Lease,
    taskId: string,
    counts: { done: number; planned: number },
    delta: { done: number; planned: number },
  ) {
    const result = await db.execute(sql`
      with task as (
        update ${t} set calls_done = ${counts.done}, calls_planned = ${counts.planned},
          updated_at = now()
        where ${t.id} = ${taskId} and ${holds(lease)}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} + ${delta.done},
        calls_planned = ${j.callsPlanned} + ${delta.planned}
      where ${j.id} = ${lease.jobId} and ${j.leaseGeneration} = ${lease.generation}
        and exists (select 1 from task)
      returning 1`);
    wrote(lease, rowsOf(result));
  }

  /**
   * A task done: its pages, rows and part recorded; false when the task is no longer this copy's
   * (the caller then deletes the part nobody will name).
   */
  async function completeTask(
    lease: Lease,
    taskId: string,
    result: { done: number; rows: number; requests: RequestRecord[]; partKey: string },
  ): Promise<boolean> {
    const completed = await db
      .update(t)
      .set({
        status: 'completed',
        callsDone: result.done,
        // A type that needed fewer pages than estimated is done: planned follows what was needed.
        callsPlanned: result.done,
        rows: result.rows,
        outputKeys: result.requests.map((r) => r.object),
        requests: result.requests,
        partKey: result.partKey,
        updatedAt: new Date(),
      })
      .where(and(eq(t.id, taskId), holds(lease)))
      .returning({ id: t.id });
    return completed.length > 0;
  }

  /** Back to pending (retried later) or failed for good, with the reason. */
  async function setTask(
    lease: Lease,
    task: TaskRow,
    status: 'pending' | 'failed',
    message: string,
  ) {
    wrote(
      lease,
      await db
        .update(t)
        .set({ status, error: message, updatedAt: new Date() })
        .where(and(eq(t.id, task.id), holds(lease)))
        .returning({ id: t.id }),
    );
  }

  /** Skips a task; its job's totals lose whatever the task had counted, in the same statement. */
  async function skipTask(lease: Lease, task: TaskRow, reason: string) {
    const result = await db.execute(sql`
      with before as (
        select ${t.callsDone} as done, ${t.callsPlanned} as planned from ${t} where ${t.id} = ${task.id}
      ), skipped as (
        update ${t} set status = 'skipped', skip_reason = ${reason}, calls_planned = 0,
          calls_done = 0
        where ${t.id} = ${task.id} and ${holds(lease)}
        returning 1
      )
      update ${j} set calls_done = ${j.callsDone} - (select done from before),
        calls_planned = ${j.callsPlanned} - (select planned from before)
      where ${j.id} = ${task.jobId} and ${j.leaseGeneration} = ${lease.generation}
        and exists (select 1 from skipped)
      returning 1`);
    wrote(lease, rowsOf(result));
  }

  /** The job's totals summed again from its tasks (at its end). */
  async function syncJobTotals(lease: Lease) {
    const { jobId } = lease;
    const rows = await db
      .update(j)
      .set({
        callsDone: sql`(select coalesce(sum(${t.callsDone}), 0) from ${t} where ${t.jobId} = ${jobId})`,
        callsPlanned: sql`(select coalesce(sum(${t.callsPlanned}), 0) from ${t} where ${t.jobId} = ${jobId})`,
      })
      .where(heldJob(lease))
      .returning({ id: j.id });
    wrote(lease, rows);
  }

  /** Ends a job whose tasks all ended: failed if any failed for good (saying which), else completed. */
  async function finishJob(lease: Lease) {
    const failed = await db
      .select({ dataType: t.dataType, error: t.error })
      .from(t)
      .where(and(eq(t.jobId, lease.jobId), eq(t.status, 'failed')));
    await syncJobTotals(lease);
    const reasons = [...new Set(failed.map((f) => `${f.dataType}: ${f.error}`))];
    wrote(
      lease,
      await db
        .update(j)
        .set({
          status: failed.length > 0 ? 'failed' : 'completed',
          error:
            failed.length > 0 ? `${failed.length} part(s) failed: ${reasons.join('; ')}` : null,
          completedAt: new Date(),
          leaseExpiresAt: null,
        })
        .where(heldJob(lease))
        .returning({ id: j.id }),
    );
  }

  /** Ends the job as failed with its open tasks, if this copy still holds it. */
  async function failJob(lease: Lease, message: string) {
    await db
      .update(t)
      .set({ status: 'failed', error: message, updatedAt: new Date() })
      .where(
        and(eq(t.jobId, lease.jobId), inArray(t.status, ['pending', 'running']), holds(lease)),
      );
    wrote(
      lease,
      await db
        .update(j)
        .set({ status: 'failed', error: message, completedAt: new Date(), leaseExpiresAt: null })
        .where(heldJob(lease))
        .returning({ id: j.id }),
    );
  }

  /** Frees the job's lease at once (for pg-boss's retry), if this copy still holds it. */
  async function releaseJob(lease: Lease) {
    await db.update(j).set({ leaseExpiresAt: null }).where(heldJob(lease));
  }

  return {
    startTask,
    recordPage,
    moveJobTotals,
    completeTask,
    setTask,
    skipTask,
    finishJob,
    failJob,
    releaseJob,
  };
}

export type Progress = ReturnType<typeof createProgress>;
