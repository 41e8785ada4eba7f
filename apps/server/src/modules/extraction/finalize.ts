import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { extractionJobs, extractionRuns } from '../../db/schema/index.js';
import type { RunRow } from './records.js';

/**
 * Finalisation: the run's files are written once, when every job has ended (no copy holds a lease
 * any more, so no task can still write), and only by the worker that claims the run. The last job
 * to end writes them itself, at once; only if that fails is it queued for a worker (with back-off).
 */

export interface FinalizeDeps {
  db: Db;
  writeRunFiles: (run: RunRow) => Promise<void>;
  /** Queues the finalisation for a worker (once per run). */
  finalizeLater: (runId: string) => Promise<void>;
}

export function createFinalize(deps: FinalizeDeps) {
  const { db } = deps;
  /** Finalisations under way in this process, so two jobs ending together write the files once. */
  const finalizing = new Map<string, Promise<void>>();

  const openJobs = (runId: string) =>
    db
      .select({ id: extractionJobs.id })
      .from(extractionJobs)
      .where(
        and(
          eq(extractionJobs.runId, runId),
          inArray(extractionJobs.status, ['pending', 'running']),
        ),
      )
      .limit(1);

  /** Writes the run's files unless a job is still open or another worker has claimed them. */
  async function finalize(runId: string) {
    if ((await openJobs(runId)).length > 0) return;
    const r = extractionRuns;
    const [run] = await db
      .update(r)
      .set({ finalizingUntil: sql`now() + interval '10 minutes'` })
      .where(
        and(
          eq(r.id, runId),
          eq(r.status, 'running'),
          sql`(${r.finalizingUntil} is null or ${r.finalizingUntil} < now())`,
        ),
      )
      .returning();
    if (!run) return;
    try {
      await deps.writeRunFiles(run);
    } catch (error) {
      // Claimed no longer: the queued finalisation (or the watch) tries again.
      await db.update(r).set({ finalizingUntil: null }).where(eq(r.id, runId));
      throw error;
    }
  }

  /** finalize(), joined by any other caller for the same run meanwhile. */
  function finalizeOnce(runId: string): Promise<void> {
    let work = finalizing.get(runId);
    if (!work) {
      work = finalize(runId).finally(() => finalizing.delete(runId));
      finalizing.set(runId, work);
    }
    return work;
  }

  /** After a job ended: the run's files, if it was the last. */
  async function maybeFinalize(runId: string) {
    if ((await openJobs(runId)).length > 0) return;
    try {
      await finalizeOnce(runId);
    } catch {
      // Left to the queue, which retries with back-off.
      await deps.finalizeLater(runId);
    }
  }

  return { finalize, finalizeOnce, maybeFinalize };
}
